"""An accelerated Kafka(json) -> Calc -> Kafka(json) job on the real stock Flink 2.2.1 distribution.

The shim jar goes into `lib/`, `accelerator.python.executable` points at this interpreter, and the
same INSERT runs twice on one cluster: stock (flag off) and with `SET 'accelerator.enabled'`. The
sink topics must hold the same bytes, the accelerated job's graph must show the accelerated
operator, and no sidecar process or shared-memory file may outlive the job.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from accelerator.testing import locations, sidecars
from accelerator.testing.flink import FlinkCluster, JobFailed, SqlSubmissionFailed
from accelerator.testing.gateway import SqlGateway

pytestmark = pytest.mark.services

BID_TABLE = """
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
"""
QUERIES = {
    "q0": """
CREATE TABLE out_bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, bidder, price, channel, url, `dateTime`, extra FROM bid;
""",
    "q2": """
CREATE TABLE out_bid (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
""",
}
ACCELERATED = "Accelerated["


def bids(count: int = 3000) -> list[str]:
    """Nexmark-like bids as JSON text, with nulls, unicode and extreme values mixed in."""
    rng = random.Random(20261202)
    channels = ["Apple", "Google", "Facebook", "Baidu", "channel-7", "ünïcode ✓", None]
    out = []
    for i in range(count):
        bid = {
            "auction": rng.choice([rng.randrange(1000, 1500), 123 * rng.randrange(1, 20), None]),
            "bidder": rng.randrange(1000, 3000),
            "price": rng.choice([rng.randrange(1, 10_000_000), 9223372036854775807, -1]),
            "channel": rng.choice(channels),
            "url": f"https://www.nexmark.com/item.htm?query={i}",
            "dateTime": f"2026-01-01 00:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}",
            "extra": "x" * rng.randrange(0, 40),
        }
        out.append(json.dumps(bid, ensure_ascii=rng.random() < 0.5))
    return out


@pytest.fixture
def cluster(accelerated_cluster):
    """The session's cluster with the jar (accelerator.python.executable: this interpreter, REST
    metrics fresh to the half second)."""
    return accelerated_cluster


@pytest.fixture
def gateway(accelerated_gateway):
    """Submits the jobs, but for the tests of sql-client.sh's own messages (no client JVM per job)."""
    return accelerated_gateway


@pytest.fixture(scope="module")
def bid_topic(kafka_broker):
    topic = kafka_broker.create_topic(f"accelerated-e2e-bids-{uuid.uuid4().hex[:8]}")
    kafka_broker.produce(topic, bids())
    return topic


def run(gateway, kafka_broker, new_topic, bid_topic, query: str, settings: str = "") -> tuple[list[bytes], str]:
    sink = new_topic("out-bids")
    (job_id,) = gateway.run_sql(settings + BID_TABLE + QUERIES[query],
                                {"bootstrap": kafka_broker.bootstrap, "source": bid_topic, "sink": sink})
    return [r.value for r in kafka_broker.consume(sink)], job_id


def vertex_names(cluster, job_id: str) -> list[str]:
    return [v["name"] for v in cluster.rest(f"/jobs/{job_id}")["vertices"]]


@pytest.mark.parametrize("query", sorted(QUERIES))
def test_accelerated_job_writes_the_bytes_stock_writes(cluster, gateway, kafka_broker, new_topic, bid_topic, query):
    stock, stock_job = run(gateway, kafka_broker, new_topic, bid_topic, query)
    assert stock, "the stock run wrote nothing; the comparison would prove nothing"
    assert not any(ACCELERATED in n for n in vertex_names(cluster, stock_job))

    before = sidecars.regions()
    accelerated, job_id = run(gateway, kafka_broker, new_topic, bid_topic, query,
                              settings="SET 'accelerator.enabled' = 'true';\n")
    names = vertex_names(cluster, job_id)
    assert any(ACCELERATED in n for n in names), names
    assert accelerated == stock

    taskmanagers = cluster.daemon_pids()
    assert sidecars.sidecar_pids(taskmanagers) == []
    left = (sidecars.regions_of(taskmanagers) - before) | sidecars.orphaned_regions(before)
    assert left == set(), f"shared-memory regions left behind: {left}"


#: Queries no whole segment covers: the Kafka source (and the Calcs it can take) runs accelerated
#: and hands Arrow-backed rows to Flink's own operators for the rest.
PARTIAL_QUERIES = {
    "unsupported_function": """
CREATE TABLE out_bid (auction BIGINT, query STRING, channel STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, REGEXP_EXTRACT(url, 'query=(.*)', 1), channel FROM bid WHERE price > 1000;
""",
    "aggregation": """
CREATE TABLE channel_volume (channel STRING, bids BIGINT, volume BIGINT, top_price BIGINT,
  first_time TIMESTAMP(3), PRIMARY KEY (channel) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO channel_volume SELECT channel, COUNT(*), SUM(price), MAX(price), MIN(`dateTime`)
FROM bid WHERE auction IS NOT NULL AND channel IS NOT NULL GROUP BY channel;
""",
}


def run_partial(gateway, kafka_broker, new_topic, bid_topic, query: str, settings: str = ""):
    sink = new_topic("out-partial")
    (job_id,) = gateway.run_sql(settings + BID_TABLE + PARTIAL_QUERIES[query],
                                {"bootstrap": kafka_broker.bootstrap, "source": bid_topic, "sink": sink})
    return [(r.key, r.value) for r in kafka_broker.consume(sink)], job_id


@pytest.mark.parametrize("query", sorted(PARTIAL_QUERIES))
def test_a_partly_accelerated_job_writes_the_bytes_stock_writes(cluster, gateway, kafka_broker, new_topic, bid_topic,
                                                                query):
    """An unsupported function, or an aggregation, keeps its operator stock; the Kafka source (and
    the Calc before the aggregation) run accelerated; the sink topic holds exactly stock's messages."""
    from accelerator.compat.runner import acceleration_of

    stock, stock_job = run_partial(gateway, kafka_broker, new_topic, bid_topic, query)
    assert stock, "the stock run wrote nothing; the comparison would prove nothing"
    assert acceleration_of(vertex_names(cluster, stock_job)) == "stock"

    before = sidecars.regions()
    accelerated, job_id = run_partial(gateway, kafka_broker, new_topic, bid_topic, query,
                                      settings="SET 'accelerator.enabled' = 'true';\n")
    names = vertex_names(cluster, job_id)
    assert acceleration_of(names) == "partial", names
    assert any("Accelerated[bid-rows]" in n for n in names), names
    assert accelerated == stock

    taskmanagers = cluster.daemon_pids()
    assert sidecars.sidecar_pids(taskmanagers) == []
    left = (sidecars.regions() - before) & (sidecars.regions_of(taskmanagers) | sidecars.orphaned_regions())
    assert left == set(), f"shared-memory regions left behind: {left}"


SIDECAR_METRICS = "accelerator."


def sidecar_metrics(cluster, job_id: str) -> dict[str, float]:
    """The accelerated operator's `accelerator.*` metrics from the REST API, summed over subtasks."""
    (vertex,) = [v for v in cluster.rest(f"/jobs/{job_id}")["vertices"] if ACCELERATED in v["name"]]
    path = f"/jobs/{job_id}/vertices/{vertex['id']}/metrics"
    ids = [m["id"] for m in cluster.rest(path) if f".{SIDECAR_METRICS}" in m["id"]]
    if not ids:
        return {}
    summed: dict[str, float] = {}
    for metric in cluster.rest(path + "?get=" + urllib.parse.quote(",".join(ids))):
        name = metric["id"].rsplit(f".{SIDECAR_METRICS}", 1)[1]
        summed[name] = summed.get(name, 0) + float(metric["value"])
    return summed


def test_operator_metrics_show_every_record_through_the_sidecar(cluster, gateway, kafka_broker, new_topic, bid_topic):
    """Read from Flink's REST API while the (unbounded) job runs: rows and bytes in and out of the sidecar."""
    stock, _ = run(gateway, kafka_broker, new_topic, bid_topic, "q2")
    sent = [b.encode() for b in bids()]
    assert 0 < len(stock) < len(sent), "q2 filters: rows out must differ from rows in for this test to mean much"
    unbounded = BID_TABLE.replace("'scan.bounded.mode' = 'latest-offset', ", "")
    assert unbounded != BID_TABLE
    (job_id,) = gateway.submit_sql("SET 'accelerator.enabled' = 'true';\n" + unbounded + QUERIES["q2"],
                                   {"bootstrap": kafka_broker.bootstrap, "source": bid_topic,
                                    "sink": new_topic("out-bids")})
    expected = {"sidecarRecordsIn": len(sent), "sidecarRecordsOut": len(stock),
                "sidecarBytesIn": sum(map(len, sent)), "sidecarBytesOut": sum(map(len, stock))}
    metrics: dict[str, float] = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if cluster.rest(f"/jobs/{job_id}")["state"] == "RUNNING":
                metrics = sidecar_metrics(cluster, job_id)
                if {k: metrics.get(k) for k in expected} == expected:
                    break
            time.sleep(0.5)
    finally:
        cluster.cancel_job(job_id)
    assert {k: metrics.get(k) for k in expected} == expected, metrics
    assert 1 <= metrics["sidecarBatches"] <= len(sent)
    assert metrics["sidecarTimeNanos"] > 0
    assert any(name.startswith("sidecarBatchTimeMicros") for name in metrics), sorted(metrics)
    assert metrics["managedMemoryBytes"] > 0, "the Arrow buffers come out of the slot's managed memory"
    assert 0 < metrics["arrowPeakBytes"] <= metrics["managedMemoryBytes"]


def test_fail_on_fallback_refuses_a_job_that_would_run_stock(cluster, kafka_broker, new_topic, bid_topic):
    """With the option on, a segment that cannot be accelerated fails the submission with its reason."""
    fallback = QUERIES["q2"].replace("WHERE MOD(auction, 123) = 0", "WHERE REGEXP(url, 'query=1[0-9]$')")
    settings = ("SET 'accelerator.enabled' = 'true';\n"
                "SET 'accelerator.fallback.fail-on-fallback' = 'true';\n")
    params = {"bootstrap": kafka_broker.bootstrap, "source": bid_topic, "sink": new_topic("out-bids")}
    jobs_before = cluster.rest("/jobs")["jobs"]
    with pytest.raises(SqlSubmissionFailed) as failed:
        cluster.submit_sql(settings + BID_TABLE + fallback, params)
    message = str(failed.value)
    assert "'accelerator.fallback.fail-on-fallback' is true" in message, message
    assert "segment bid-to-out_bid: " in message and "REGEXP" in message, message
    assert cluster.rest("/jobs")["jobs"] == jobs_before, "no job may have been submitted"

    (job_id,) = cluster.submit_sql(settings + BID_TABLE + QUERIES["q2"], params)
    cluster.wait_for_job(job_id)
    assert any(ACCELERATED in n for n in vertex_names(cluster, job_id))


def test_an_interpreter_without_the_package_is_one_clear_task_failure(cluster, gateway, kafka_broker, new_topic,
                                                                       bid_topic, tmp_path):
    """The job fails once, at the operator's start, naming the option and the pip command that fixes it."""
    # A real interpreter that cannot import `accelerator`, also when PYTHONPATH names a checkout.
    bare = tmp_path / "python3"
    bare.write_text(f"#!/bin/sh\nunset PYTHONPATH\nexec {Path(sys.base_prefix) / 'bin' / Path(sys.executable).name} \"$@\"\n")
    bare.chmod(0o755)
    probe = subprocess.run([str(bare), "-c", "import accelerator"], capture_output=True, cwd=tmp_path)
    assert probe.returncode != 0, "the bare interpreter must not see the accelerator package"
    settings = ("SET 'accelerator.enabled' = 'true';\n"
                f"SET 'accelerator.python.executable' = '{bare}';\n")
    (job_id,) = gateway.submit_sql(settings + BID_TABLE + QUERIES["q0"],
                                   {"bootstrap": kafka_broker.bootstrap, "source": bid_topic,
                                    "sink": new_topic("out-bids")})
    with pytest.raises(JobFailed) as failed:
        cluster.wait_for_job(job_id)
    message = str(failed.value)
    assert f"accelerator.python.executable={bare}" in message, message
    assert f"{bare} -m pip install flink-accelerator==" in message, message
    history = cluster.rest(f"/jobs/{job_id}/exceptions")["exceptionHistory"]["entries"]
    assert len(history) == 1, [e.get("exceptionName") for e in history]


@pytest.mark.parametrize("topics", ["one", "list"])
def test_a_bad_message_fails_the_job_naming_its_kafka_record(cluster, gateway, kafka_broker, new_topic, topics):
    """Like stock Flink's deserialization failure, the accelerated one names topic, partition and
    offset of the bad message, and the option that would skip it; a table over a topic list reads
    the topic per record, one over a single topic knows it."""
    from accelerator.testing.kafka import Record

    bad = new_topic("accelerated-e2e-bad", partitions=2)
    good = [Record(value=v, partition=0) for v in bids(5)]
    kafka_broker.produce(bad, good + [Record(value=v, partition=1) for v in bids(3)]
                         + [Record(value=b'{"auction": 1, "bidder":', partition=1)])
    source = bad if topics == "one" else f"{bad};{new_topic('empty')}"
    (job_id,) = gateway.submit_sql("SET 'accelerator.enabled' = 'true';\n" + BID_TABLE + QUERIES["q0"],
                                   {"bootstrap": kafka_broker.bootstrap, "source": source,
                                    "sink": new_topic("out-bids")})
    with pytest.raises(JobFailed) as failed:
        cluster.wait_for_job(job_id)
    message = str(failed.value)
    assert f"(topic '{bad}', partition 1, offset 3)" in message, message
    assert "'json.ignore-parse-errors' = 'true'" in message, message
    assert any(ACCELERATED in n for n in vertex_names(cluster, job_id))


def test_skipped_bad_messages_are_counted(cluster, gateway, kafka_broker, new_topic):
    """Under json.ignore-parse-errors the accelerated job drops exactly what stock Flink drops (whole
    messages it cannot parse; a field it cannot convert only becomes null), and counts the dropped
    messages in the job accumulator (and metric) sidecarRecordsSkipped."""
    source = new_topic("accelerated-e2e-skips")
    odd = [b'{"auction": 1, "bidder":', b"not json", b'{"auction": "x"}', b'{"price": 1e400}']
    messages = [v.encode() for v in bids(20)] + odd + [v.encode() for v in bids(5)]
    kafka_broker.produce(source, messages + [None])
    ignoring = BID_TABLE.replace("'format' = 'json');", "'format' = 'json', 'json.ignore-parse-errors' = 'true');")
    assert ignoring != BID_TABLE
    outputs, jobs = [], []
    for settings in ("", "SET 'accelerator.enabled' = 'true';\n"):
        sink = new_topic("out-bids")
        (job_id,) = gateway.run_sql(settings + ignoring + QUERIES["q0"],
                                    {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
        outputs.append([r.value for r in kafka_broker.consume(sink)])
        jobs.append(job_id)
    stock, accelerated = outputs
    assert 25 <= len(stock) < len(messages) and accelerated == stock
    assert any(ACCELERATED in n for n in vertex_names(cluster, jobs[1]))
    accumulators = cluster.rest(f"/jobs/{jobs[1]}/accumulators")["user-task-accumulators"]
    skipped = [int(a["value"]) for a in accumulators if a["name"].startswith("accelerator.sidecarRecordsSkipped.")]
    assert skipped == [len(messages) - len(stock)], accumulators  # a tombstone is no row, and no skip


def test_messages_the_fast_path_leaves_are_counted(cluster, gateway, kafka_broker, new_topic):
    """Messages the json decoder's fast path cannot vouch for (here a float for a BIGINT, which Flink
    reads) are decoded by the exact path, as stock Flink would, and counted in the job accumulator
    (and metric) sidecarRecordsExactPath."""
    source = new_topic("accelerated-e2e-exact-path")
    plain = [json.dumps({"auction": i, "bidder": 2, "price": 3, "channel": "c", "url": "u",
                         "dateTime": "2026-01-01 00:00:00", "extra": ""}) for i in range(20)]
    floats = [json.dumps({"auction": 1000 + i, "price": float(i)}) for i in range(3)]  # 0.0, 1.0, 2.0
    kafka_broker.produce(source, plain[:10] + floats + plain[10:])
    outputs, jobs = [], []
    for settings in ("", "SET 'accelerator.enabled' = 'true';\n"):
        sink = new_topic("out-bids")
        (job_id,) = gateway.run_sql(settings + BID_TABLE + QUERIES["q0"],
                                    {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
        outputs.append([r.value for r in kafka_broker.consume(sink)])
        jobs.append(job_id)
    assert len(outputs[0]) == 23 and outputs[1] == outputs[0]
    assert any(ACCELERATED in n for n in vertex_names(cluster, jobs[1]))
    assert cluster.accumulator_total(jobs[1], "accelerator.sidecarRecordsExactPath.") == 3
    assert cluster.accumulator_total(jobs[0], "accelerator.sidecarRecordsExactPath.") == 0  # stock: none


def test_parallelism_two_on_two_taskmanagers(kafka_broker, new_topic):
    """One sidecar per subtask, one subtask per TaskManager; both carry records; the output equals
    stock's (as a multiset: two subtasks write to the sink concurrently); nothing is left after."""
    from accelerator.testing.kafka import Record
    from accelerator.testing.sidecars import regions_of, sidecar_pids

    source = new_topic("accelerated-e2e-p2", partitions=2)
    # Alternate partitions explicitly: a keyless producer sticks to one partition for a while, and
    # all of bids() can land in one, leaving one subtask without records.
    kafka_broker.produce(source, [Record(value=v, partition=i % 2) for i, v in enumerate(bids())])
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], taskmanagers=2, slots_per_taskmanager=1,
                           config={"accelerator.python.executable": sys.executable, "parallelism.default": 2,
                                   "metrics.fetcher.update-interval": "500 ms"}).start()
    failed = True
    try:
        gateway = SqlGateway(cluster).start()  # ends with the cluster
        overview = cluster.rest("/overview")
        assert (overview["taskmanagers"], overview["slots-total"]) == (2, 2)
        stock, stock_job = run(gateway, kafka_broker, new_topic, source, "q0")
        assert len(stock) == len(bids())
        assert {v["parallelism"] for v in cluster.rest(f"/jobs/{stock_job}")["vertices"]} == {2}
        taskmanagers = [p for p in cluster.daemon_pids()
                        if "TaskManagerRunner" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
        assert len(taskmanagers) == 2
        sink = new_topic("out-bids-p2")
        unbounded = BID_TABLE.replace("'scan.bounded.mode' = 'latest-offset', ", "")
        (job_id,) = gateway.submit_sql("SET 'accelerator.enabled' = 'true';\n" + unbounded + QUERIES["q0"],
                                       {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
        per_subtask: dict[str, float] = {}
        try:
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline:
                per_subtask = cluster.operator_metric(job_id, ACCELERATED, SIDECAR_METRICS + "sidecarRecordsIn")
                if sum(per_subtask.values()) == len(stock):
                    break
                time.sleep(0.5)
            sidecars = {tm: sidecar_pids([tm]) for tm in taskmanagers}
            assert all(len(pids) == 1 for pids in sidecars.values()), sidecars
        finally:
            cluster.cancel_job(job_id)
        assert sorted(per_subtask) == ["0", "1"] and all(v > 0 for v in per_subtask.values()), per_subtask
        assert sum(per_subtask.values()) == len(stock), per_subtask
        assert sorted(r.value for r in kafka_broker.consume(sink, isolation_level="read_uncommitted")) \
            == sorted(stock)
        deadline = time.monotonic() + 30
        while sidecar_pids(taskmanagers) or regions_of(taskmanagers + [p for v in sidecars.values() for p in v]):
            assert time.monotonic() < deadline, "sidecars or regions outlived the cancelled job"
            time.sleep(0.2)
        failed = False
    finally:
        cluster.stop(keep_logs=failed)

