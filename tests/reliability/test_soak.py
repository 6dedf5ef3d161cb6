"""Soak: many accelerated job start/stop cycles, then a long run under load, on the real stock
distribution. Afterwards nothing may be left behind (sidecar processes, shared-memory files,
extracted planner jars, file descriptors of the TaskManager) and the resident memory of the
TaskManager and of the sidecars must be flat.

CI runs a short version; `make soak` sets ACCELERATOR_SOAK_CYCLES=100 and
ACCELERATOR_SOAK_SECONDS=1800. With ACCELERATOR_SOAK_REPORT set, the figures are written there as
JSON (docs/reliability.md quotes the latest).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster, flatten
from accelerator.testing.sidecars import orphaned_regions, regions_of, sidecar_pids

pytestmark = pytest.mark.services

CYCLES = int(os.environ.get("ACCELERATOR_SOAK_CYCLES", "3"))
LOAD_S = float(os.environ.get("ACCELERATOR_SOAK_SECONDS", "45"))
REPORT = os.environ.get("ACCELERATOR_SOAK_REPORT")
MB = 1 << 20

TABLES = """
CREATE TABLE src (id BIGINT, name STRING, price DOUBLE, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', ${bounded} 'format' = 'json');
CREATE TABLE out_src (id BIGINT, name STRING, price DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json');
SET 'accelerator.enabled' = 'true';
INSERT INTO out_src SELECT id, UPPER(name), price * 2 FROM src WHERE MOD(id, 5) <> 0;
"""
BOUNDED = "'scan.bounded.mode' = 'latest-offset',"

_figures: dict = {}


def messages(start: int, count: int) -> list[str]:
    return [json.dumps({"id": i, "name": f"name-{i}-" + "x" * (i % 50), "price": i / 7,
                        "ts": f"2026-01-01 00:00:{i % 60:02d}.{i % 1000:03d}"}) for i in range(start, start + count)]


@pytest.fixture(scope="module")
def cluster(request):
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], config={
        "accelerator.python.executable": sys.executable,
        "restart-strategy.type": "none"})
    # A temp directory of the cluster's own, so extracted jars can be counted whatever else runs.
    tmp = cluster.workdir / "tmp"
    tmp.mkdir()
    stock = flatten(yaml.safe_load((cluster.dist / "conf" / "config.yaml").read_text()))
    cluster.overlay["env.java.opts.all"] = f"{stock.get('env.java.opts.all', '')} -Djava.io.tmpdir={tmp}"
    cluster.start()
    yield cluster
    cluster.stop(keep_logs=request.session.testsfailed > 0)
    if REPORT and _figures:
        Path(REPORT).write_text(json.dumps(_figures, indent=2) + "\n")


def taskmanager(cluster) -> int:
    (pid,) = [p for p in cluster.daemon_pids()
              if "TaskManagerRunner" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
    return pid


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def leftovers(cluster, tm: int, regions_before: set[str]) -> dict:
    return {"sidecars": sidecar_pids([tm]),
            "regions": sorted(regions_of([tm]) | orphaned_regions(regions_before)),
            "planner_jars": sorted(p.name for p in (cluster.workdir / "tmp").glob("flink-accelerator-*"))}


def test_job_start_stop_cycles_leak_nothing(cluster, kafka_broker, new_topic, regions_before):
    source, sink = new_topic("soak-cycles-src"), new_topic("soak-cycles-out")
    kafka_broker.produce(source, messages(0, 300))
    params = {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink, "bounded": BOUNDED}
    tm = taskmanager(cluster)
    samples = []
    for cycle in range(1, CYCLES + 1):
        (job_id,) = cluster.run_sql(TABLES, params)
        if cycle == 1:
            assert any("Accelerated[" in v["name"] for v in cluster.rest(f"/jobs/{job_id}")["vertices"])
        left = leftovers(cluster, tm, regions_before)
        assert left == {"sidecars": [], "regions": [], "planner_jars": []}, f"after job {cycle}: {left}"
        samples.append({"cycle": cycle, "tm_rss_mb": round(rss(tm) / MB, 1), "tm_fds": fds(tm)})
    assert len(kafka_broker.consume(sink)) == CYCLES * 240
    first, last = samples[0], samples[-1]
    _figures["cycles"] = {"jobs": CYCLES, "first": first, "last": last,
                          "tm_rss_mb_max": max(s["tm_rss_mb"] for s in samples)}
    assert last["tm_fds"] <= first["tm_fds"] + 16, samples
    # The JVM's heap settles after the first jobs; after that, growth must not track the job count.
    settled = samples[len(samples) // 4]["tm_rss_mb"]
    assert last["tm_rss_mb"] <= settled * 1.15 + 64, samples


def test_a_long_run_under_load_keeps_memory_flat(cluster, kafka_broker, new_topic, regions_before):
    source, sink = new_topic("soak-load-src", partitions=2), new_topic("soak-load-out")
    params = {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink, "bounded": ""}
    stop = threading.Event()
    produced = [0]

    def feed():
        while not stop.is_set():
            kafka_broker.produce(source, messages(produced[0], 2000))
            produced[0] += 2000
            stop.wait(0.5)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    tm = taskmanager(cluster)
    fds_before = fds(tm)
    (job_id,) = cluster.submit_sql("SET 'parallelism.default' = '2';\n" + TABLES, params)
    samples = []
    try:
        _wait_for(lambda: len(sidecar_pids([tm])) == 2, lambda: "the job's two sidecars did not start", 180)
        started = time.monotonic()
        while time.monotonic() - started < LOAD_S:
            time.sleep(min(10.0, max(LOAD_S / 20, 1.0)))
            job = cluster.rest(f"/jobs/{job_id}")
            assert job["state"] == "RUNNING", cluster.job_exception(job_id)
            sidecars = sidecar_pids([tm])
            samples.append({"s": round(time.monotonic() - started), "tm_rss_mb": round(rss(tm) / MB, 1),
                            "sidecar_rss_mb": round(sum(rss(p) for p in sidecars) / MB, 1),
                            "sidecars": len(sidecars), "produced": produced[0]})
    finally:
        stop.set()
        feeder.join()
        _cancel(cluster, job_id)
    assert _restarts(cluster, job_id) == 0, cluster.job_exception(job_id)
    assert all(s["sidecars"] == 2 for s in samples), samples
    _wait_for(lambda: leftovers(cluster, tm, regions_before) == {"sidecars": [], "regions": [], "planner_jars": []},
              lambda: f"left after the load run: {leftovers(cluster, tm, regions_before)}")
    written = len(kafka_broker.consume(sink, isolation_level="read_uncommitted"))
    _figures["load"] = {"seconds": LOAD_S, "messages_in": produced[0], "messages_out": written,
                        "fds_before": fds_before, "fds_after": fds(tm), "samples": samples}
    assert written >= produced[0] * 0.8 * 0.5, "the job fell far behind the feed"
    assert fds(tm) <= fds_before + 16
    # Flat: the second half of the run holds no more memory than the first half, give or take.
    half = samples[len(samples) // 2:]
    early = samples[:max(1, len(samples) // 2)]
    for key, slack in (("tm_rss_mb", 96), ("sidecar_rss_mb", 48)):
        assert max(s[key] for s in half) <= max(s[key] for s in early) * 1.10 + slack, (key, samples)


def _cancel(cluster, job_id: str) -> None:
    request = urllib.request.Request(f"{cluster.rest_url}/jobs/{job_id}?mode=cancel", method="PATCH")
    urllib.request.urlopen(request, timeout=10).close()
    _wait_for(lambda: cluster.rest(f"/jobs/{job_id}")["state"] == "CANCELED", lambda: "job not canceled")


def _restarts(cluster, job_id: str) -> int:
    return len(cluster.rest(f"/jobs/{job_id}/exceptions")["exceptionHistory"]["entries"])


def _wait_for(condition, message, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, message()
        time.sleep(0.2)


SLOW_SINK = "soak-slow-sink"
SLOW_TABLES = TABLES.replace("'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json');",
                             "'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json',"
                             f" 'properties.client.id' = '{SLOW_SINK}', 'properties.buffer.memory' = '1048576');")


def test_a_slow_sink_backpressures_without_growing_memory(cluster, kafka_broker, new_topic):
    """The broker throttles the sink's producer to 64 KB/s (a client quota) and its buffer is 1 MB:
    the operator and its sidecar then wait, batch by batch, instead of piling rows up."""
    assert SLOW_TABLES != TABLES
    _quota(kafka_broker, SLOW_SINK, 65536)
    source, sink = new_topic("soak-slow-src"), new_topic("soak-slow-out")
    kafka_broker.produce(source, messages(0, 150_000))  # ~15 MB in, ~120,000 messages (~10 MB) out
    tm = taskmanager(cluster)
    (job_id,) = cluster.submit_sql(SLOW_TABLES, {"bootstrap": kafka_broker.bootstrap, "source": source,
                                                 "sink": sink, "bounded": ""})
    samples = []
    try:
        _wait_for(lambda: len(sidecar_pids([tm])) == 1, lambda: "the job's sidecar did not start", 180)
        started = time.monotonic()
        while time.monotonic() - started < max(30.0, min(LOAD_S, 60.0)):
            time.sleep(3)
            assert cluster.rest(f"/jobs/{job_id}")["state"] == "RUNNING", cluster.job_exception(job_id)
            samples.append({"tm_rss_mb": round(rss(tm) / MB, 1),
                            "sidecar_rss_mb": round(sum(rss(p) for p in sidecar_pids([tm])) / MB, 1)})
        written = len(kafka_broker.consume(sink, isolation_level="read_uncommitted"))
    finally:
        _cancel(cluster, job_id)
    _figures["slow_sink"] = {"messages_in": 150_000, "written_while_sampled": written, "samples": samples}
    assert written < 120_000 * 0.5, "the sink was not slow: nothing was backpressured"
    measured = samples[1:]  # the first sample may predate the sidecar's first batch
    for key, slack in (("tm_rss_mb", 128), ("sidecar_rss_mb", 48)):
        assert max(s[key] for s in measured) - min(s[key] for s in measured) <= slack, (key, samples)


def _quota(kafka_broker, client_id: str, bytes_per_second: int) -> None:
    libs = locations.kafka_broker_libs()
    result = subprocess.run(["java", "-cp", f"{libs}/*", "kafka.admin.ConfigCommand", "--bootstrap-server",
                             kafka_broker.bootstrap, "--alter", "--add-config",
                             f"producer_byte_rate={bytes_per_second}", "--entity-type", "clients",
                             "--entity-name", client_id], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
