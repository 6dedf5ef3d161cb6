"""`accelerator explain`: the plan of a SQL script with each operator marked, from the real planner.

Runs the CLI against the stock Flink 2.2.1 distribution with this checkout's jar first on the class
path. Nothing runs: no Kafka broker, no Flink cluster (the Kafka tables are only planned).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from accelerator.explain import Explained
from accelerator.testing import locations

TABLES = """
-- a comment line, as in a sql-client script
CREATE TABLE bid (auction BIGINT, price BIGINT, url STRING) WITH (
  'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_bid (auction BIGINT, x STRING) WITH (
  'connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json');
"""


@pytest.fixture(scope="module", autouse=True)
def provisioned():
    locations.require(locations.shim_jar(), "the flink-accelerator jar (mvn -f java-shim/pom.xml package)")
    locations.require(locations.flink_home() / "lib", "the stock Flink distribution")


def explain(tmp_path, script: str) -> subprocess.CompletedProcess:
    job = tmp_path / "job.sql"
    job.write_text(script)
    return subprocess.run([sys.executable, "-m", "accelerator", "explain", str(job),
                           "--flink-home", str(locations.flink_home()), "--jar", str(locations.shim_jar())],
                          capture_output=True, text=True, timeout=600)


def test_a_supported_query_is_marked_accelerated(tmp_path):
    result = explain(tmp_path, TABLES + "INSERT INTO out_bid SELECT auction, url FROM bid WHERE price > 10;\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("== INSERT INTO out_bid SELECT auction, url FROM bid WHERE price > 10 (line "), lines
    operators = [line for line in lines[1:] if "  #" in line]
    assert [line.split("(")[0].lstrip("+- ") for line in operators] == ["Sink", "Calc", "TableSourceScan"], lines
    assert all(line.endswith("[accelerated: Accelerated[bid-to-out_bid]]") for line in operators), lines
    assert "[stock" not in result.stdout


def test_an_unsupported_function_is_marked_stock_with_the_function_in_the_reason(tmp_path):
    """The Calc stays stock; the Kafka source runs partly accelerated, feeding the Calc, and the
    sink's encoding runs accelerated over the Calc's rows."""
    result = explain(tmp_path, TABLES + "INSERT INTO out_bid SELECT auction, REGEXP_REPLACE(url, 'a+', 'b') FROM bid;\n")
    assert result.returncode == 0, result.stderr
    operators = [line for line in result.stdout.splitlines() if "  #" in line]
    assert [line.split("(")[0].lstrip("+- ") for line in operators] == ["Sink", "Calc", "TableSourceScan"], operators
    sink, calc, source = operators
    assert "REGEXP_REPLACE" in calc.split("[stock: ", 1)[1], operators
    assert "[accelerated (partial): Accelerated[bid-rows], rows to stock operators" in source, source
    assert "[accelerated (partial): Accelerated[out_bid-encode], rows from stock operators; the calc before stays" \
           " stock: " in sink, sink
    stock = result.stdout.split("Partly accelerated.\nRuns on stock Flink:\n", 1)[1]
    assert stock.lstrip().startswith("segment bid-to-out_bid: ") and "REGEXP_REPLACE" in stock, result.stdout


def test_invalid_sql_exits_non_zero_with_flinks_message(tmp_path):
    result = explain(tmp_path, TABLES + "INSERT INTO out_bid SELEC auction FROM bid;\n")
    assert result.returncode == 1
    assert result.stdout == ""
    line = TABLES.count("\n") + 1
    assert f"Statement at line {line} failed: SQL parse failed." in result.stderr, result.stderr
    assert "INSERT INTO out_bid SELEC auction FROM bid" in result.stderr


def test_an_unknown_table_is_flinks_validation_error(tmp_path):
    result = explain(tmp_path, TABLES + "INSERT INTO nowhere SELECT auction, url FROM bid;\n")
    assert result.returncode == 1
    assert "Cannot find table '`default_catalog`.`default_database`.`nowhere`'" in result.stderr, result.stderr


def test_a_statement_set_is_explained_as_one_job(tmp_path):
    other = TABLES.replace("CREATE TABLE out_bid", "CREATE TABLE other_out").split("CREATE TABLE other_out", 1)[1]
    script = (TABLES + "CREATE TABLE other_out" + other
              + "EXECUTE STATEMENT SET BEGIN\n"
                "INSERT INTO out_bid SELECT auction, url FROM bid;\n"
                "INSERT INTO other_out SELECT auction, REGEXP_REPLACE(url, 'a+', 'b') FROM bid;\n"
                "END;\n")
    result = explain(tmp_path, script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n== ") + result.stdout.startswith("== ") == 1, result.stdout
    sinks = [line for line in result.stdout.splitlines() if line.startswith("Sink(")]
    assert len(sinks) == 2, result.stdout
    assert "source default_catalog.default_database.bid feeds 2 operators" in result.stdout, result.stdout


def test_a_create_table_as_select_is_explained_and_creates_its_table(tmp_path):
    """As the SQL client runs it: the table exists for the statements after it. Flink 1.20's planner
    does not translate the CTAS operation itself (run with ACCELERATOR_FLINK_VERSION=1.20.3)."""
    source = TABLES.split("CREATE TABLE out_bid", 1)[0]
    script = (source + "CREATE TABLE results WITH (\n"
              "  'connector' = 'kafka', 'topic' = 'r', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json')\n"
              "AS SELECT auction, url FROM bid WHERE price > 10;\n"
              "INSERT INTO results SELECT auction, REGEXP_REPLACE(url, 'a+', 'b') FROM bid;\n")
    result = explain(tmp_path, script)
    assert result.returncode == 0, result.stderr
    ctas, insert = result.stdout.split("\n== ")
    assert ctas.startswith("== CREATE TABLE results WITH ("), result.stdout
    operators = [line for line in ctas.splitlines() if "  #" in line]
    assert [line.split("(")[0].lstrip("+- ") for line in operators] == ["Sink", "Calc", "TableSourceScan"], ctas
    assert all(line.endswith("[accelerated: Accelerated[bid-to-results]]") for line in operators), ctas
    assert insert.startswith("INSERT INTO results SELECT auction, REGEXP_REPLACE"), insert
    assert "REGEXP_REPLACE" in insert.split("Runs on stock Flink:", 1)[1], insert


def test_without_a_jar_in_lib_explain_takes_the_jar_of_the_distributions_flink_line():
    """As install-jar picks it: `--flink-home` of a 1.20 distribution gets the 1.20 jar even where
    the checkout's clusters run 2.2.1 (the 2.x jar would leave its planner hook inactive)."""
    from accelerator import flink_lines, install
    from accelerator.explain import default_jar

    homes = [h for h in sorted(locations.cache_dir().glob("flink-*")) if (h / "bin" / "config.sh").is_file()]
    assert locations.flink_home() in homes, homes
    for home in homes:
        version = install.flink_version(home)
        if not any((home / "lib").glob("flink-accelerator-*.jar")):
            assert default_jar(home) == locations.built_jar(flink_lines.jar_name(version)), home


WINDOWED = """
CREATE TABLE bid_t (auction BIGINT, price BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_win (auction BIGINT, window_start TIMESTAMP(3), total BIGINT, other BIGINT) WITH (
  'connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json');
INSERT INTO out_win SELECT auction, window_start, SUM(price), MAX(price)
FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end;
INSERT INTO out_win SELECT auction, window_start, SUM(price), COUNT(DISTINCT price)
FROM TABLE(HOP(TABLE bid_t, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
"""


def test_window_aggregates_are_accelerated_only_with_their_option(tmp_path):
    """accelerator.window-aggregate.enabled: the accelerated operator with its descriptor, or the stock reasons."""
    off = explain(tmp_path, WINDOWED)
    assert off.returncode == 0, off.stderr
    assert "Window aggregates (" not in off.stdout and "window aggregate bid_t-window-agg" not in off.stdout, off.stdout

    on = explain(tmp_path, "SET 'accelerator.window-aggregate.enabled' = 'true';\n" + WINDOWED)
    assert on.returncode == 0, on.stderr
    tumble, hop = on.stdout.split("\n== ")[0], on.stdout.split("\n== ")[1]
    aggregate = next(line for line in tumble.splitlines() if "GlobalWindowAggregate(" in line)
    assert aggregate.endswith("[accelerated: Accelerated[bid_t-window-agg]]"), aggregate
    assert "  bid_t-window-agg: runs as Accelerated[bid_t-window-agg], descriptor:\n    {\n      \"protocol\": 1,\n" \
           "      \"kind\": \"window_agg\",\n" in tumble, tumble
    aggregate = next(line for line in hop.splitlines() if "GlobalWindowAggregate(" in line)
    assert aggregate.endswith("[stock: window aggregate bid_t-window-agg: aggregates: COUNT(DISTINCT price) is not"
                              " accelerated: DISTINCT aggregates stay stock]"), aggregate
    # The stock parts hold the HOP's aggregate, with its reason, and not the accelerated TUMBLE's.
    stock_parts = Explained(on.returncode, on.stdout, on.stderr).stock_parts
    windowed = [p for p in stock_parts if p.startswith("window aggregate ")]
    assert windowed == ["window aggregate bid_t-window-agg: aggregates: COUNT(DISTINCT price) is not accelerated:"
                        " DISTINCT aggregates stay stock"], stock_parts


GROUPED = """
CREATE TABLE bid_g (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_g (auction BIGINT, total BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO out_g SELECT auction, SUM(price) FROM bid_g GROUP BY auction;
INSERT INTO out_g SELECT total, COUNT(DISTINCT auction) FROM (SELECT auction, SUM(price) AS total FROM bid_g
  GROUP BY auction) GROUP BY total;
"""


def test_group_aggregates_are_accelerated_only_with_their_option(tmp_path):
    """accelerator.group-aggregate.enabled: the accelerated operator with its descriptor, or the stock reasons."""
    off = explain(tmp_path, GROUPED)
    assert off.returncode == 0, off.stderr
    assert "Group aggregates (" not in off.stdout, off.stdout

    on = explain(tmp_path, "SET 'accelerator.group-aggregate.enabled' = 'true';\n" + GROUPED)
    assert on.returncode == 0, on.stderr
    summed, distinct = on.stdout.split("\n== ")[0], on.stdout.split("\n== ")[1]
    aggregate = next(line for line in summed.splitlines() if "GroupAggregate(" in line)
    assert aggregate.endswith("[accelerated: Accelerated[bid_g-group-agg]]"), aggregate
    assert "  bid_g-group-agg: runs as Accelerated[bid_g-group-agg], descriptor:\n    {\n      \"protocol\": 1,\n" \
           "      \"kind\": \"group_agg\",\n" in summed, summed
    # The second statement's outer aggregate, a DISTINCT over the inner one's updates, stays stock.
    stock_parts = Explained(on.returncode, on.stdout, on.stderr).stock_parts
    grouped = [p for p in stock_parts if p.startswith("group aggregate ")]
    assert len(grouped) == 1 and grouped[0].startswith("group aggregate bid_g-group-agg") and grouped[0].endswith(
        ": aggregates: COUNT(DISTINCT auction) is not accelerated: DISTINCT over an updating input stays stock (stock"
        " Flink counts each value's rows per aggregate in its distinct view to retract them)"), stock_parts


DEDUPLICATED = """
CREATE TABLE bid_d (auction BIGINT, price BIGINT, ts TIMESTAMP(3), pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_d (auction BIGINT, price BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO out_d SELECT auction, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction
  ORDER BY pt DESC) AS rn FROM bid_d) WHERE rn = 1;
INSERT INTO out_d SELECT auction, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction
  ORDER BY ts ASC) AS rn FROM bid_d) WHERE rn = 1;
"""


def test_deduplications_are_accelerated_only_with_their_option(tmp_path):
    """accelerator.deduplicate.enabled: the accelerated operator with its descriptor, or the stock reasons."""
    off = explain(tmp_path, DEDUPLICATED)
    assert off.returncode == 0, off.stderr
    assert "Deduplications (" not in off.stdout, off.stdout

    on = explain(tmp_path, "SET 'accelerator.deduplicate.enabled' = 'true';\n" + DEDUPLICATED)
    assert on.returncode == 0, on.stderr
    last, first = on.stdout.split("\n== ")[0], on.stdout.split("\n== ")[1]
    dedup = next(line for line in last.splitlines() if "Deduplicate(" in line)
    assert dedup.endswith("[accelerated: Accelerated[bid_d-dedup]]"), dedup
    assert "\"kind\": \"deduplicate\"" in last and "\"keep\": \"last\"" in last, last
    stock_parts = Explained(on.returncode, on.stdout, on.stderr).stock_parts
    assert [p for p in stock_parts if p.startswith("deduplication ")] == [
        "deduplication bid_d-dedup: deduplicate: an event-time first row is not accelerated: stock Flink runs"
        " RowTimeDeduplicateKeepFirstRowFunction (insert-only, each key's first row emitted on a watermark); the"
        " event-time last row and both processing-time deduplications are"], stock_parts


WINDOWS_BATCHED = """
SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.group-window-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
CREATE TABLE bid_w (auction BIGINT, price BIGINT, d DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:1',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_w (k BIGINT, n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json');
CREATE TABLE out_wd (k DOUBLE, n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = 'out', 'properties.bootstrap.servers' = 'localhost:1', 'format' = 'json');
INSERT INTO out_w SELECT auction, COUNT(*) FROM TABLE(HOP(TABLE bid_w, DESCRIPTOR(ts), INTERVAL '2' SECOND,
  INTERVAL '10' SECOND)) WHERE price > 0 GROUP BY auction, window_start, window_end;
INSERT INTO out_w SELECT auction, COUNT(*) FROM bid_w WHERE price > 0 GROUP BY auction, SESSION(ts, INTERVAL '10' SECOND);
INSERT INTO out_wd SELECT d, COUNT(*) FROM bid_w WHERE price > 0 GROUP BY d, TUMBLE(ts, INTERVAL '10' SECOND);
INSERT INTO out_wd SELECT d, COUNT(*) FROM TABLE(TUMBLE(TABLE bid_w, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  WHERE price > 0 GROUP BY d, window_start, window_end;
"""


def test_window_aggregates_and_group_windows_read_batches_or_say_why_not(tmp_path):
    """accelerator.exchange.batched.enabled: the window aggregate's global phase reads the folded local
    phase's partials in batches, the group window its rows; a DOUBLE key, and a local phase that stays
    stock, keep the per-row exchange with the reason under "Keyed exchanges"."""
    result = explain(tmp_path, WINDOWS_BATCHED)
    assert result.returncode == 0, result.stderr
    hop, session, group_double, window_double = result.stdout.split("\n== ")
    assert "Accelerated[bid_w-window-agg]: batches from Accelerated[bid_w-rows]" in hop, hop
    assert "Accelerated[bid_w-group-window]: batches from Accelerated[bid_w-rows]" in session, session
    assert "Accelerated[bid_w-group-window]: per-row exchange: key d of type DOUBLE: the sidecar builds key rows" \
           in group_double, group_double
    assert "Accelerated[bid_w-window-agg]: per-row exchange: its exchange reads the stock local window aggregate," \
           " which was not folded into a rows stage" in window_double, window_double
