"""The shim jar's planner hook on the real stock Flink 2.2.1 distribution (nothing mocked).

The jar goes into `lib/` like a user would put it there; the SQL client plans the job, so what
the hook says is in the client's log (`log/flink-*-sql-client-*.log`, rewritten by every run).
With the flag off (the default) Flink must stay exactly stock: same output, same EXPLAIN.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import pytest

import accelerator
from accelerator.testing import locations, sql
from accelerator.testing.flink import ANSI_ESCAPE, FlinkCluster

from test_flink_stock_pipeline import EXPECTED, ORDERS, QUERY, TABLES

ON_LINE = "planner hook active, accelerator.enabled=true"
OFF_LINE = "planner hook active, accelerator.enabled=false"
INSTALLED_LINE = "planner hook installed in the table planner's class loader"
ORDER_OK_LINE = "class path order OK, Flink loads the shim's PlannerModule"
ORDER_BAD_LINE = "planner hook INACTIVE in this JVM: Flink loads the stock PlannerModule"
# With the flag on, segments run through a sidecar started with this interpreter.
SIDECAR_PYTHON = {"accelerator.python.executable": sys.executable}
PLANNER_JAR = f"META-INF/flink-accelerator/flink-accelerator-{accelerator.__version__}-planner.jar"

# Both EXPLAIN forms: the plain one, and the stream graph built from translateToPlan's output.
EXPLAINS = TABLES + "EXPLAIN PLAN FOR " + QUERY + "EXPLAIN JSON_EXECUTION_PLAN " + QUERY


# -- helpers the harness does not have (yet) --------------------------------------------------
def client_log(cluster: FlinkCluster) -> str:
    """The SQL client's log of its last run (log4j-cli.properties truncates it on every start)."""
    logs = sorted(cluster.log_dir.glob("flink-*-sql-client-*.log"))
    assert logs, f"no sql-client log in {cluster.log_dir}"
    return "\n".join(p.read_text(errors="replace") for p in logs)


def sql_client(cluster: FlinkCluster, script: str, params: dict, *args: str) -> str:
    """`bin/sql-client.sh [args] -f script`; returns its output (statement results included).

    `FlinkCluster.submit_sql` returns job ids only and takes no client arguments (`-D...`).
    """
    path = cluster.workdir / f"hook-{uuid.uuid4().hex}.sql"
    path.write_text(sql.render(script, params))
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLINK_")}
    env["FLINK_HOME"] = str(cluster.home)
    result = subprocess.run([str(cluster.home / "bin" / "sql-client.sh"), *args, "-f", str(path)],
                            cwd=cluster.home, env=env, capture_output=True, text=True, timeout=300)
    output = ANSI_ESCAPE.sub("", result.stdout + result.stderr)
    assert result.returncode == 0 and "[ERROR]" not in output, output
    return output


def plans(output: str) -> list[str]:
    """The EXPLAIN results in a sql-client transcript, table borders and padding removed."""
    cells = re.findall(r"^\| (== Abstract Syntax Tree ==.*?)\s*\|\s*$", output, re.S | re.M)
    return [re.sub(r"[ \t]+$", "", cell, flags=re.M) for cell in cells]


def run_job(kafka_broker, cluster: FlinkCluster, new_topic, settings: str = "", before_insert: str = "") -> list[bytes]:
    """The Kafka JSON -> Kafka JSON job of test_flink_stock_pipeline; returns the sink's values."""
    source, sink = new_topic("orders"), new_topic("big-orders")
    kafka_broker.produce(source, [json.dumps(o) for o in ORDERS])
    cluster.run_sql(settings + TABLES + before_insert + QUERY,
                    {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
    return [r.value for r in kafka_broker.consume(sink)]


def explain_params(kafka_broker) -> dict:
    # Same topic names on both sides: EXPLAIN does not read them, only prints them.
    return {"bootstrap": kafka_broker.bootstrap, "source": "explain-orders", "sink": "explain-big-orders"}


# -- the jar itself (no services) -------------------------------------------------------------
def test_planner_side_classes_are_only_in_the_embedded_jar():
    with zipfile.ZipFile(locations.shim_jar()) as jar:
        names = set(jar.namelist())
        embedded = zipfile.ZipFile(jar.open(PLANNER_JAR))
    assert "org/apache/flink/table/planner/loader/PlannerModule.class" in names
    assert not [n for n in names if n.startswith("org/flinkaccelerator/planner/")]
    inner = set(embedded.namelist())
    assert {"org/flinkaccelerator/planner/AcceleratedPlannerFactory.class",
            "org/flinkaccelerator/planner/AcceleratedStreamPlanner.class",
            "org/flinkaccelerator/planner/rules/RewriteRule.class"} <= inner
    # A services file for a second 'default' planner factory would clash with stock's.
    assert not [n for n in inner if n.startswith("META-INF/services/")]
    classes = [n for n in inner if n.endswith(".class")]
    assert all(n.startswith("org/flinkaccelerator/planner/") for n in classes), classes


# -- on the real distribution -----------------------------------------------------------------
@pytest.fixture
def shim_cluster(accelerated_cluster):
    """The stock distribution with the shim jar in lib/ and accelerator.enabled unset (false); the
    sidecar's interpreter is this one, for the tests that turn the flag on (the session's)."""
    return accelerated_cluster


@pytest.mark.services
def test_flag_on_in_config_yaml_keeps_exact_output_and_says_so(kafka_broker, new_topic):
    with FlinkCluster(extra_jars=[locations.shim_jar()], config={"accelerator.enabled": True, **SIDECAR_PYTHON}) as cluster:
        with (cluster.home / "conf" / "log4j-cli.properties").open("a") as conf:
            conf.write("\nlogger.accelerator.name = org.flinkaccelerator\nlogger.accelerator.level = DEBUG\n")
        # EXPLAIN first: the planner runs twice in one client, the line must appear once.
        out = run_job(kafka_broker, cluster, new_topic, before_insert="EXPLAIN PLAN FOR " + QUERY)
        log = client_log(cluster)
    assert out == EXPECTED
    # The rewrite seam gets the real ExecNode graph, once per plan; the segment runs accelerated.
    considered = [l for l in log.splitlines() if "Rewrite rules [accelerate-window-aggregates, accelerate-group-aggregates, accelerate-deduplicates, accelerate-top-n, accelerate-joins, accelerate-over-aggregates, accelerate-group-window-aggregates, accelerate-window-joins, export-kafka-segments, accelerate-kafka-sources, accelerate-batch-exchanges, accelerate-kafka-sinks] considering the plan's nodes" in l]
    assert len(considered) == 2, log
    assert all(t in considered[-1] for t in ("StreamExecSink", "StreamExecCalc", "StreamExecTableSourceScan"))
    assert log.count("segment orders-to-big_orders can be accelerated") == 2, log
    assert log.count("segment orders-to-big_orders runs accelerated") == 2, log
    assert log.count(ON_LINE) == 1, log
    assert OFF_LINE not in log
    (line,) = [l for l in log.splitlines() if ON_LINE in l]
    assert " INFO " in line
    assert f"flink-accelerator {accelerator.__version__} " in line
    assert f"on Flink {accelerator.FLINK_VERSION}" in line
    assert INSTALLED_LINE in log and ORDER_OK_LINE in log


@pytest.mark.services
def test_flag_off_keeps_exact_output_and_says_so(kafka_broker, shim_cluster, new_topic):
    out = run_job(kafka_broker, shim_cluster, new_topic)
    log = client_log(shim_cluster)
    assert out == EXPECTED
    assert log.count(OFF_LINE) == 1, log
    assert ON_LINE not in log
    assert INSTALLED_LINE in log


@pytest.mark.services
def test_set_in_the_script_turns_it_on(kafka_broker, shim_cluster, new_topic):
    out = run_job(kafka_broker, shim_cluster, new_topic, settings="SET 'accelerator.enabled' = 'true';\n")
    log = client_log(shim_cluster)
    assert out == EXPECTED
    assert log.count(ON_LINE) == 1, log
    assert OFF_LINE not in log


@pytest.mark.services
def test_set_can_flip_it_between_statements(kafka_broker, shim_cluster):
    script = (TABLES + "EXPLAIN PLAN FOR " + QUERY + "SET 'accelerator.enabled' = 'true';\n"
              + "EXPLAIN PLAN FOR " + QUERY)
    sql_client(shim_cluster, script, explain_params(kafka_broker))
    log = client_log(shim_cluster)
    assert log.count(OFF_LINE) == 1 and log.count(ON_LINE) == 1, log
    assert log.index(OFF_LINE) < log.index(ON_LINE)


@pytest.mark.services
def test_dash_d_on_the_client_turns_it_on(kafka_broker, shim_cluster):
    sql_client(shim_cluster, EXPLAINS, explain_params(kafka_broker), "-Daccelerator.enabled=true")
    log = client_log(shim_cluster)
    assert log.count(ON_LINE) == 1 and OFF_LINE not in log, log


@pytest.mark.services
def test_batch_mode_keeps_stocks_planner(kafka_broker, shim_cluster):
    script = "SET 'execution.runtime-mode' = 'batch';\nSET 'accelerator.enabled' = 'true';\n" + TABLES \
        + "EXPLAIN PLAN FOR " + QUERY
    sql_client(shim_cluster, script, explain_params(kafka_broker))
    log = client_log(shim_cluster)
    assert INSTALLED_LINE in log
    assert ON_LINE not in log and OFF_LINE not in log, log


@pytest.mark.services
def test_explain_with_jar_and_flag_off_equals_stock(kafka_broker, flink_cluster, shim_cluster):
    stock = plans(sql_client(flink_cluster, EXPLAINS, explain_params(kafka_broker)))
    assert "flink-accelerator" not in client_log(flink_cluster)
    hooked = plans(sql_client(shim_cluster, EXPLAINS, explain_params(kafka_broker)))
    assert OFF_LINE in client_log(shim_cluster)
    assert len(stock) == 2 and '"nodes"' in stock[1], stock
    assert hooked == stock


@pytest.mark.services
def test_jar_sorting_after_the_table_uber_jar_is_inactive_and_says_so(kafka_broker, tmp_path):
    """What a class path in the wrong order (e.g. a plain `python script.py` PyFlink launch) gives."""
    late = tmp_path / f"zz-flink-accelerator-{accelerator.__version__}.jar"
    shutil.copy2(locations.shim_jar(), late)
    with FlinkCluster(extra_jars=[late], config={"accelerator.enabled": True}) as cluster:
        sql_client(cluster, EXPLAINS, explain_params(kafka_broker))
        log = client_log(cluster)
    (line,) = [l for l in log.splitlines() if ORDER_BAD_LINE in l]
    assert " WARN " in line and "flink-table-api-java-uber" in line
    assert INSTALLED_LINE not in log and ON_LINE not in log
