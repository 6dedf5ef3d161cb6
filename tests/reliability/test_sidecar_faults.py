"""Faults on the real stock Flink 2.2.1 distribution with the shim jar and the flag on: the sidecar
is killed (SIGKILL) or hangs (SIGSTOP) while a checkpointed job writes through Flink's Kafka sink.
Flink restarts from the last checkpoint; the committed output must equal the stock run's exactly
(exactly-once: same messages, same order, nothing lost or duplicated; at-least-once: nothing lost,
duplicates only as replays from a checkpoint, as Flink itself makes).

Each fault hits where it can do harm: inside a process() call (the JVM has handed the sidecar a
batch and waits for its answer), after the sink has written messages since the last checkpoint.
The test triggers the accelerated run's checkpoints itself (REST), so it knows there are such
messages; every fault must then show as an aborted transaction (exactly-once: read_uncommitted sees
messages twice that read_committed sees once) or as a replay (at-least-once).

The source topic is bounded at a fixed end offset, and the test writes it slowly, interleaved with
the faults, so the job is certainly running (and calling its sidecar) when each fault hits; it
finishes by itself once the last message is written, committing its last transaction.

Two jobs: a stateless segment (Kafka -> Calc -> Kafka, all in the sidecar), and an event-time
job whose watermarked source runs as a rows stage in front of Flink's own window aggregate, so a
restart also re-creates the per-split watermarks from the restored splits while the window state
comes back from the checkpoint.

`ACCELERATOR_FAULT_KILLS` sets the number of faults (3 in CI; `make soak` runs 20).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
import urllib.error
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from accelerator.sidecar.shm import alive
from accelerator.testing import locations
from accelerator.testing.faults import (CHUNK, Feed, await_new_sidecar, bids, checkpoint, failures,
                                        freeze_inside_a_call, wait_feeding, written)
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.sidecars import orphaned_regions, regions_of, sidecar_pids

pytestmark = pytest.mark.services

FAULTS = int(os.environ.get("ACCELERATOR_FAULT_KILLS", "3"))
TIMEOUT_S = 3  # accelerator.sidecar.timeout for the hang faults

SOURCE = """
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING${watermark}) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'properties.group.id' = '${group}', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:0,offset:${end}',
  'format' = 'json');
"""
SINK = """
CREATE TABLE out_bid (auction BIGINT, price BIGINT, channel STRING, url STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'sink.delivery-guarantee' = '${guarantee}', 'sink.transactional-id-prefix' = '${prefix}',
  'properties.transaction.timeout.ms' = '120000', 'format' = 'json');
INSERT INTO out_bid SELECT auction, price, channel, url FROM bid WHERE MOD(bidder, 3) <> 0;
"""
WINDOW_SINK = """
CREATE TABLE out_windows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT, volume BIGINT,
  last_url STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'sink.delivery-guarantee' = '${guarantee}', 'sink.transactional-id-prefix' = '${prefix}',
  'properties.transaction.timeout.ms' = '120000', 'format' = 'json');
INSERT INTO out_windows
SELECT window_start, window_end, COUNT(*), SUM(price), MAX(url)
FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
WHERE MOD(bidder, 3) <> 0
GROUP BY window_start, window_end;
"""
#: Bids 250 ms apart in event time, so no bid is ever late: what a window holds does not depend on
#: when watermarks are emitted, nor on a restart resetting the watermark (Flink does not checkpoint it).
SPACING_MS = 250
ACCELERATED = f"""
SET 'accelerator.enabled' = 'true';
SET 'accelerator.batch.size' = '16';
SET 'accelerator.sidecar.timeout' = '{TIMEOUT_S} s';
SET 'execution.checkpointing.interval' = '1 h';
"""


def _json(row: dict) -> bytes:
    """A row as Flink's json format writes it: fields in table order, compact, UTF-8 unescaped."""
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False).encode()


def _kept(messages: list[str]) -> list[dict]:
    return [b for b in map(json.loads, messages) if b["bidder"] % 3 != 0]


def projected(messages: list[str]) -> list[bytes]:
    """What SINK's query writes for `messages`, computed here, not by Flink."""
    return [_json({k: b[k] for k in ("auction", "price", "channel", "url")}) for b in _kept(messages)]


def windowed(messages: list[str]) -> list[bytes]:
    """What WINDOW_SINK's query writes for `messages` (no bid late: SPACING_MS), computed here."""
    windows: dict[datetime, list[dict]] = {}
    for b in _kept(messages):
        when = datetime.strptime(b["dateTime"], "%Y-%m-%d %H:%M:%S.%f")
        start = when.replace(second=when.second // 10 * 10, microsecond=0)
        windows.setdefault(start, []).append(b)
    out = []
    for start, rows in sorted(windows.items()):
        volume = sum(r["price"] for r in rows if r["price"] is not None)
        volume = (volume + 2**63) % 2**64 - 2**63  # BIGINT SUM wraps as Java's long does
        out.append(_json({"window_start": f"{start:%Y-%m-%d %H:%M:%S}", "window_end":
                          f"{start + timedelta(seconds=10):%Y-%m-%d %H:%M:%S}", "bids": len(rows),
                          "volume": volume, "last_url": max(r["url"] for r in rows)}))
    return out


@dataclass(frozen=True)
class Job:
    """A checkpointed job under test: its tables and query, the accelerated vertex it must run, and
    its output computed from the input (the check that the stock run is a fair oracle)."""
    name: str
    sink: str
    vertex: str
    expected: object
    watermark: str = ""
    spacing_ms: int | None = None


STATELESS = Job("stateless", SINK, "Accelerated[bid-to-out_bid]", projected)
WINDOWED = Job("windowed", WINDOW_SINK, "Accelerated[bid-rows]", windowed,
               watermark=", WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '1' SECOND", spacing_ms=SPACING_MS)


@pytest.fixture(scope="module")
def cluster(request):
    config = {"accelerator.python.executable": sys.executable,
              "execution.checkpointing.interval": "1 s",
              "restart-strategy.type": "fixed-delay",
              "restart-strategy.fixed-delay.attempts": 1000,
              "restart-strategy.fixed-delay.delay": "1 s",
              # Flink keeps 16 failures by default; the soak injects 20 and counts them all.
              "web.exception-history-size": 1000}
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], config=config).start()
    yield cluster
    cluster.stop(keep_logs=request.session.testsfailed > 0)


@pytest.fixture(scope="module")
def gateway(cluster):
    """Submits the jobs (no client JVM started per job)."""
    gateway = SqlGateway(cluster).start()
    yield gateway
    gateway.stop()


def inject_faults(cluster, kafka_broker, job_id: str, sink: str, feed: Feed, count: int,
                  rng: random.Random) -> list[str]:
    """SIGKILL or SIGSTOP the running sidecar `count` times, each time inside a process() call and
    with output written since the last checkpoint: the job checkpoints (the test triggers every
    checkpoint of the accelerated run), the sink writes more into its open transaction, then the
    fault hits while the JVM waits for the sidecar's answer. After each, wait until Flink has
    restarted the task with a new sidecar. A job with several accelerated operators has a sidecar
    for each, all replaced by the restart: only one started after the fault counts as new."""
    taskmanagers = cluster.daemon_pids()
    seen: set[int] = set()
    done = []
    current = await_new_sidecar(taskmanagers, seen, feed)
    for i in range(count):
        feed.more(rng.randrange(1, 4))
        checkpoint(cluster, job_id)
        after = written(kafka_broker, sink)
        wait_feeding(lambda: written(kafka_broker, sink) > after, "output written after the checkpoint", feed)
        fault = signal.SIGSTOP if i % 3 == 1 else signal.SIGKILL
        seen.update(sidecar_pids(taskmanagers))
        freeze_inside_a_call(current, feed)
        if fault == signal.SIGKILL:
            os.kill(current, fault)
        done.append(fault.name)
        hit, current = current, await_new_sidecar(taskmanagers, seen, feed)
        assert not alive(hit), f"sidecar {hit} outlived its {fault.name} and the restart"
    return done


def run_with_faults(gateway, kafka_broker, new_topic, guarantee: str, faults: int, seed: int, job: Job = STATELESS):
    cluster = gateway.cluster
    rng = random.Random(seed)
    messages = bids(CHUNK * (40 + 60 * faults), seed, job.spacing_ms)
    source = new_topic(f"faults-{job.name}-bids")
    params = {"bootstrap": kafka_broker.bootstrap, "source": source, "end": len(messages),
              "guarantee": guarantee, "prefix": f"acc-faults-{uuid.uuid4().hex[:12]}", "watermark": job.watermark}
    feed = Feed(kafka_broker, source, messages)
    feed.more()
    accelerated_sink = new_topic(f"faults-{job.name}-accelerated")
    (job_id,) = gateway.submit_sql(ACCELERATED + SOURCE + job.sink,
                                   {**params, "sink": accelerated_sink, "group": f"g-{uuid.uuid4().hex}"})
    vertices = [v["name"] for v in cluster.rest(f"/jobs/{job_id}")["vertices"]]
    assert any(job.vertex in v for v in vertices), vertices
    injected = inject_faults(cluster, kafka_broker, job_id, accelerated_sink, feed, faults, rng)
    if job.watermark:
        # Windows fire while the restarted job runs, not only at the end of input: the watermarks of
        # the splits it restored advance again (uncommitted output counts: it shows the firing).
        before = written(kafka_broker, accelerated_sink)
        wait_feeding(lambda: written(kafka_broker, accelerated_sink) > before, "a window fired after the last restart", feed)
    feed.rest()
    _finish(cluster, job_id)

    stock_sink = new_topic(f"faults-{job.name}-stock")
    gateway.run_sql(SOURCE + job.sink, {**params, "sink": stock_sink, "group": f"g-{uuid.uuid4().hex}"})
    stock = [r.value for r in kafka_broker.consume(stock_sink)]
    accelerated = [r.value for r in kafka_broker.consume(accelerated_sink)]
    uncommitted = [r.value for r in kafka_broker.consume(accelerated_sink, isolation_level="read_uncommitted")]
    assert stock == job.expected(messages), "the stock run is no oracle: it did not write what the query asks"
    return Run(stock, accelerated, uncommitted, injected, failures(cluster, job_id))


@dataclass(frozen=True)
class Run:
    """What a faulted run wrote: `accelerated` as read_committed reads it, `uncommitted` with the
    aborted transactions' messages too."""
    stock: list[bytes]
    accelerated: list[bytes]
    uncommitted: list[bytes]
    injected: list[str]
    failures: list[str]


def _finish(cluster, job_id: str, timeout_s: float = 600) -> None:
    """Checkpoint until the job finishes: its sources have ended and its last transaction commits
    with the first checkpoint after that (the job has no periodic checkpoints of its own)."""
    deadline = time.monotonic() + timeout_s
    while cluster.rest(f"/jobs/{job_id}")["state"] != "FINISHED":
        assert time.monotonic() < deadline, f"job {job_id} not finished after {timeout_s} s"
        try:
            checkpoint(cluster, job_id, timeout_s=60)
        except (AssertionError, urllib.error.HTTPError):
            pass  # the job finished meanwhile, or a checkpoint declined as its tasks were finishing
        time.sleep(0.5)
    cluster.wait_for_job(job_id)


def _nothing_left(cluster, regions_before: set[str]) -> None:
    taskmanagers = cluster.daemon_pids()
    assert sidecar_pids(taskmanagers) == []
    assert regions_of(taskmanagers) == set()
    assert orphaned_regions(regions_before) == set()


@pytest.mark.parametrize("job", [STATELESS, WINDOWED], ids=lambda job: job.name)
def test_exactly_once_output_equals_stock_despite_killed_and_hung_sidecars(cluster, gateway, kafka_broker, new_topic,
                                                                           regions_before, job):
    run = run_with_faults(gateway, kafka_broker, new_topic, "exactly-once", FAULTS, seed=11, job=job)
    assert run.accelerated == run.stock, (f"{len(run.accelerated)} committed messages vs stock {len(run.stock)}: "
                                          f"{len(set(run.stock) - set(run.accelerated))} lost, "
                                          f"{len(run.accelerated) - len(set(run.accelerated))} duplicated")
    # Each fault aborted a transaction with messages in it, which the restarted job wrote again:
    # read_uncommitted sees them twice, read_committed once.
    replays = len(run.uncommitted) - len(set(run.uncommitted))
    assert replays >= len(run.injected), (replays, run.injected)
    assert set(run.uncommitted) == set(run.stock)
    assert len(run.failures) >= len(run.injected), (run.injected, run.failures)
    text = "\n".join(run.failures)
    assert "died before answering" in text
    if "SIGSTOP" in run.injected:
        assert f"within {TIMEOUT_S * 1000} ms and was killed" in text
    _nothing_left(cluster, regions_before)


def test_at_least_once_loses_nothing_and_duplicates_only_by_replay(cluster, gateway, kafka_broker, new_topic,
                                                                   regions_before):
    faults = max(2, FAULTS // 2)
    run = run_with_faults(gateway, kafka_broker, new_topic, "at-least-once", faults, seed=12)
    stock, accelerated = run.stock, run.accelerated
    position = {m: i for i, m in enumerate(stock)}
    assert len(position) == len(stock), "stock messages must be distinct for this check"
    assert set(accelerated) == set(stock), f"{len(set(stock) - set(accelerated))} messages lost"
    # Each message follows its predecessor in stock order, or the output jumps back (a replay
    # from a checkpoint after a restart); never forward (that would be a loss).
    indexes = [position[m] for m in accelerated]
    assert indexes[0] == 0
    replays = 0
    for previous, index in zip(indexes, indexes[1:]):
        if index <= previous:
            replays += 1
        else:
            assert index == previous + 1, f"jumped from stock message {previous} to {index}"
    # Every fault hit with messages written since the last checkpoint: each shows as one replay.
    assert len(run.injected) <= replays <= len(run.failures), (replays, run.injected, run.failures)
    _nothing_left(cluster, regions_before)
