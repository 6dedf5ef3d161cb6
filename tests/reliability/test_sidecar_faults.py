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
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from accelerator.sidecar.shm import REGION_PREFIX, SEQUENCE_AT, alive
from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.sidecars import orphaned_regions, regions_of, sidecar_pids

pytestmark = pytest.mark.services

FAULTS = int(os.environ.get("ACCELERATOR_FAULT_KILLS", "3"))
CHUNK = 20
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


def bids(count: int, seed: int = 7, spacing_ms: int | None = None) -> list[str]:
    """Distinct bids (the url holds the index), with nulls and unicode, as JSON text; with
    `spacing_ms`, their times rise by that much from one bid to the next."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1)
    out = []
    for i in range(count):
        when = (f"2026-01-01 00:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}" if spacing_ms is None
                else (start + timedelta(milliseconds=i * spacing_ms)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3])
        out.append(json.dumps({
            "auction": rng.choice([rng.randrange(1000, 1500), None]), "bidder": rng.randrange(1000, 3000),
            "price": rng.choice([rng.randrange(1, 10_000_000), 9223372036854775807, -1]),
            "channel": rng.choice(["Apple", "Google", "ünïcode ✓", None]),
            "url": f"https://www.nexmark.com/item.htm?query={i}",
            "dateTime": when,
            "extra": "x" * rng.randrange(0, 40)}, ensure_ascii=rng.random() < 0.5))
    return out


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


class Feed:
    """Writes the source topic in chunks of CHUNK messages, on demand, up to its fixed end."""

    def __init__(self, kafka_broker, topic: str, messages: list[str]):
        self.kafka_broker, self.topic, self.messages, self.written = kafka_broker, topic, messages, 0

    def more(self, chunks: int = 1) -> None:
        for _ in range(chunks):
            if self.written >= len(self.messages):
                raise AssertionError("the feed ran out before the faults were done; make it longer")
            self.kafka_broker.produce(self.topic, self.messages[self.written:self.written + CHUNK])
            self.written += CHUNK

    def rest(self) -> None:
        self.kafka_broker.produce(self.topic, self.messages[self.written:])
        self.written = len(self.messages)


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
    current = _await_new_sidecar(taskmanagers, seen, feed)
    for i in range(count):
        feed.more(rng.randrange(1, 4))
        checkpoint(cluster, job_id)
        after = written(kafka_broker, sink)
        _wait(lambda: written(kafka_broker, sink) > after, "output written after the checkpoint", feed)
        fault = signal.SIGSTOP if i % 3 == 1 else signal.SIGKILL
        seen.update(sidecar_pids(taskmanagers))
        _freeze_inside_a_call(current, feed)
        if fault == signal.SIGKILL:
            os.kill(current, fault)
        done.append(fault.name)
        hit, current = current, _await_new_sidecar(taskmanagers, seen, feed)
        assert not alive(hit), f"sidecar {hit} outlived its {fault.name} and the restart"
    return done


def checkpoint(cluster, job_id: str, timeout_s: float = 120) -> int:
    """Trigger a checkpoint through Flink's REST API and wait until it completes; its id."""
    request = urllib.request.Request(f"{cluster.rest_url}/jobs/{job_id}/checkpoints", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        trigger = json.loads(response.read())["request-id"]
    deadline = time.monotonic() + timeout_s
    while True:
        result = cluster.rest(f"/jobs/{job_id}/checkpoints/{trigger}")
        if result["status"]["id"] == "COMPLETED":
            operation = result.get("operation", {})
            assert "checkpointId" in operation, f"checkpoint {trigger} failed: {result}"
            return operation["checkpointId"]
        assert time.monotonic() < deadline, f"checkpoint {trigger} not done after {timeout_s} s"
        time.sleep(0.1)


def written(kafka_broker, topic: str) -> int:
    """Messages in `topic`, in open and aborted transactions too."""
    return len(kafka_broker.consume(topic, isolation_level="read_uncommitted"))


def _freeze_inside_a_call(sidecar: int, feed: Feed, timeout_s: float = 120) -> None:
    """Stop `sidecar` (SIGSTOP) while it holds a batch: the JVM has committed a request the sidecar
    has not answered (the regions' headers hold the sequence numbers, see accelerator/sidecar/shm.py).
    Checked again once stopped, so the call is certainly unanswered when the fault hits."""
    request, response = _regions_mapped_by(sidecar)
    deadline = time.monotonic() + timeout_s
    fed = time.monotonic()
    while True:
        asked, answered = _sequence(request), _sequence(response)
        if asked > 0 and answered != asked:
            os.kill(sidecar, signal.SIGSTOP)
            if _sequence(request) > 0 and _sequence(response) != _sequence(request):
                return
            os.kill(sidecar, signal.SIGCONT)
        assert time.monotonic() < deadline, f"sidecar {sidecar} was never caught inside a call"
        if time.monotonic() - fed > 1.0:
            feed.more()
            fed = time.monotonic()
        time.sleep(0.0002)


def _regions_mapped_by(sidecar: int) -> tuple[str, str]:
    """The request region (the JVM's) and the response region (its own) `sidecar` has mapped."""
    mapped = {line.split(maxsplit=5)[-1] for line in Path(f"/proc/{sidecar}/maps").read_text().splitlines()
              if REGION_PREFIX in line}
    (request,) = [m for m in mapped if os.path.basename(m).startswith(REGION_PREFIX + "request-")]
    (response,) = [m for m in mapped if os.path.basename(m).startswith(REGION_PREFIX + "response-")]
    return request, response


def _sequence(region: str) -> int:
    """The sequence number of the batch committed in `region`; 0 while one is written or none is."""
    try:
        with open(region, "rb") as f:
            return int.from_bytes(os.pread(f.fileno(), 8, SEQUENCE_AT), "little")
    except FileNotFoundError:
        return -1


def _await_new_sidecar(taskmanagers: list[int], seen: set[int], feed: Feed, timeout_s: float = 180) -> int:
    """The first sidecar of the TaskManagers not in `seen`; keeps the feed flowing meanwhile, so a
    hung sidecar is called (and noticed) and a restarted job has work."""
    found: list[int] = []
    _wait(lambda: found.extend(p for p in sidecar_pids(taskmanagers) if p not in seen) or found,
          "a new sidecar after the fault", feed, timeout_s)
    return found[0]


def _wait(condition, what: str, feed: Feed, timeout_s: float = 180) -> None:
    """Polls `condition` every 0.1 s; writes one more chunk of the feed each second meanwhile."""
    deadline = time.monotonic() + timeout_s
    fed = time.monotonic()
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout_s} s waiting for {what}"
        if time.monotonic() - fed >= 1.0:
            feed.more()
            fed = time.monotonic()
        time.sleep(0.1)


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
        _wait(lambda: written(kafka_broker, accelerated_sink) > before, "a window fired after the last restart", feed)
    feed.rest()
    _finish(cluster, job_id)

    stock_sink = new_topic(f"faults-{job.name}-stock")
    gateway.run_sql(SOURCE + job.sink, {**params, "sink": stock_sink, "group": f"g-{uuid.uuid4().hex}"})
    stock = [r.value for r in kafka_broker.consume(stock_sink)]
    accelerated = [r.value for r in kafka_broker.consume(accelerated_sink)]
    uncommitted = [r.value for r in kafka_broker.consume(accelerated_sink, isolation_level="read_uncommitted")]
    assert stock == job.expected(messages), "the stock run is no oracle: it did not write what the query asks"
    failures = _failures(cluster, job_id)
    return Run(stock, accelerated, uncommitted, injected, failures)


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


def _failures(cluster, job_id: str) -> list[str]:
    entries = cluster.rest(f"/jobs/{job_id}/exceptions?maxExceptions=1000")["exceptionHistory"]["entries"]
    return [e.get("stacktrace", "") for e in entries]


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
