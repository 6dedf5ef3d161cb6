"""The accelerated group aggregate's and deduplication's state (`accelerator.group-aggregate.enabled`,
`accelerator.deduplicate.enabled`) on the real stock Flink 2.2.1 distribution with a real Kafka
broker, under faults, against stock Flink running the same job uninterrupted.

One job (a statement set over one watermarked bid source, parallelism 1, one partition, checkpoints
every second) holds both operators in sidecars: COUNT/SUM/MAX per channel, and the latest bid per
auction (ROW_NUMBER over the rowtime, descending), each into an exactly-once upsert-kafka sink.
`ACCELERATOR_STATEFUL_FAULT_KILLS` faults (5 here; `make soak`: 50) hit it, each a SIGKILL of the
group aggregate's, the deduplication's or the source stage's sidecar, or (every fifth) of the
TaskManager, which is replaced; each is proven to hit the running job (a restart in which both
operators restored more than 0 keys from a checkpoint). The committed messages of both sinks then
equal stock's, in order: every update the operators emitted is there once, none lost, none
duplicated (the changelog of one partition at parallelism 1 is deterministic)."""

from __future__ import annotations

import itertools
import os
import time
import uuid

import pytest

from accelerator.testing.faults import (CHUNK, Feed, bids, completed_checkpoints, inject_stateful_faults, restarts,
                                        restored_entries, taskmanager_pids)
from accelerator.testing.flink import TERMINAL_STATES
from accelerator.testing.sidecars import orphaned_regions, sidecar_pids

pytestmark = pytest.mark.services

SPACING_MS = 250
TABLES = """
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SET 'pipeline.max-parallelism' = '128';
SET 'parallelism.default' = '1';
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'properties.group.id' = 'g-${prefix}', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:0,offset:${end}',
  'format' = 'json', 'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_channel (channel STRING, bids BIGINT, volume BIGINT, top BIGINT,
  PRIMARY KEY (channel) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${prefix}-totals',
  'properties.transaction.timeout.ms' = '120000', 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE latest_bid (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3),
  PRIMARY KEY (auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${prefix}-latest',
  'properties.transaction.timeout.ms' = '120000', 'key.format' = 'json', 'value.format' = 'json');
"""
JOB = """
EXECUTE STATEMENT SET BEGIN
INSERT INTO per_channel SELECT channel, COUNT(*), SUM(price), MAX(price) FROM bid WHERE channel IS NOT NULL GROUP BY channel;
INSERT INTO latest_bid SELECT auction, bidder, price, `dateTime` FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY `dateTime` DESC) AS rn FROM bid WHERE auction IS NOT NULL) WHERE rn = 1;
END;
"""
ACCELERATED = """
SET 'accelerator.enabled' = 'true';
SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.batch.size' = '16';
"""
GROUP_AGG, DEDUP, SOURCE = "Accelerated[bid-group-agg]", "Accelerated[bid-dedup]", "Accelerated[bid-rows]"
FAULTS = int(os.environ.get("ACCELERATOR_STATEFUL_FAULT_KILLS", "5"))


def _fault_kinds(count: int) -> list[str]:
    """Every fifth fault kills the TaskManager; the others kill, in turn, the group aggregate's,
    the deduplication's and the source stage's sidecar."""
    sidecars = itertools.cycle([GROUP_AGG, DEDUP, SOURCE])
    return ["taskmanager" if i % 5 == 2 else next(sidecars) for i in range(count)]


def _committed(kafka_broker, topic: str) -> list[tuple[bytes | None, bytes | None]]:
    return [(r.key, r.value) for r in kafka_broker.consume(topic)]


def test_group_aggregate_and_deduplication_survive_killed_sidecars_and_taskmanagers(
        kafka_broker, new_topic, checkpointing_cluster, checkpointing_gateway, regions_before):
    cluster, gateway = checkpointing_cluster, checkpointing_gateway
    kinds = _fault_kinds(FAULTS)
    assert {GROUP_AGG, DEDUP, "taskmanager"} <= set(kinds), kinds
    started = time.monotonic()
    messages = bids(CHUNK * (60 + 60 * FAULTS), seed=31, spacing_ms=SPACING_MS)
    source = new_topic("changelog-faults-bids")
    feed = Feed(kafka_broker, source, messages)
    feed.more(3)

    def params(totals: str, latest: str) -> dict:
        return {"bootstrap": kafka_broker.bootstrap, "source": source, "end": len(messages), "totals": totals,
                "latest": latest, "prefix": f"cl-{uuid.uuid4().hex[:12]}"}

    totals, latest = new_topic("changelog-faults-totals"), new_topic("changelog-faults-latest")
    (job_id,) = gateway.submit_sql(ACCELERATED + TABLES + JOB, params(totals, latest))
    names = [v["name"] for v in cluster.rest(f"/jobs/{job_id}")["vertices"]]
    assert any(GROUP_AGG in n for n in names) and any(DEDUP in n for n in names), names
    restored_before = {op: len(restored_entries(cluster, op)) for op in (GROUP_AGG, DEDUP)}
    try:
        inject_stateful_faults(cluster, job_id, feed, kinds, [GROUP_AGG, DEDUP])
        feed.rest()
        cluster.wait_for_job(job_id)
    finally:
        if cluster.rest(f"/jobs/{job_id}")["state"] not in TERMINAL_STATES:
            cluster.cancel_job(job_id)  # a failed run's job would hold the slots the next tests need
    figures = {"faults": FAULTS, "restarts": restarts(cluster, job_id),
               "restores": {op: len(restored_entries(cluster, op)) - n for op, n in restored_before.items()},
               "checkpoints": completed_checkpoints(cluster, job_id), "seconds": round(time.monotonic() - started)}
    print(f"\ngroup aggregate and deduplication under faults: {figures}")

    stock_totals, stock_latest = new_topic("changelog-stock-totals"), new_topic("changelog-stock-latest")
    gateway.run_sql(TABLES + JOB, params(stock_totals, stock_latest))
    for ours, stock in ((totals, stock_totals), (latest, stock_latest)):
        expected, got = _committed(kafka_broker, stock), _committed(kafka_broker, ours)
        assert len(expected) > len(messages) // 4, f"stock wrote only {len(expected)} messages to {stock}"
        first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
        assert got == expected, (f"{ours}: {len(got)} committed messages, stock's {len(expected)}; first difference"
                                 f" at {first}: {got[first:first + 2]} vs {expected[first:first + 2]}")
    assert sidecar_pids(taskmanager_pids(cluster)) == [], "sidecars outlived the job"
    assert orphaned_regions(regions_before) == set(), "region files outlived their processes"
