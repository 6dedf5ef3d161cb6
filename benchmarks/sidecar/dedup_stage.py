"""CPU time of the deduplicate stage alone, per million rows, driven through its `update` call in
process (no transport) in the shape of Nexmark q18: the last bid of each (bidder, auction) by
`dateTime` (`ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) = 1`, event
time, into an upsert sink: no update-befores, inserts on), over the bench generator's bids, in
batches as the JVM operator sends them (`--batch`: a batch leaves after
`accelerator.batch.max-delay`, 100 ms, about 5,000 bids at the bench's rate). `--order proctime`
keeps the last row on processing time instead (the per-level path). `--profile` prints cProfile's
top costs; `--snapshot` also times a checkpoint's snapshot and its restore.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/dedup_stage.py [--events N] [--batch 5000]
        [--order rowtime|proctime] [--update-before] [--profile] [--snapshot]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.dedup.stage import DedupStage
from nexmark_bids import BID_FIELDS, RESTORE, TRANSPORT, batches, bids

KEY = ("bidder", "auction")


def descriptor(order: str, update_before: bool) -> dict:
    return {"name": "bench", "keys": [f for k in KEY for f in BID_FIELDS if f["name"] == k],
            "order": order, "keep": "last", "rowtime": "dateTime" if order == "rowtime" else None,
            "generate_update_before": update_before, "generate_insert": True,
            "input": {"fields": TRANSPORT + BID_FIELDS}, "output": {"fields": BID_FIELDS},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def measure(events: int, batch_rows: int, order: str, update_before: bool, profile: bool, snapshot: bool) -> None:
    stage = DedupStage(descriptor(order, update_before))
    rows = bids(events)
    work = batches(rows, KEY, stage.spec.input_schema, batch_rows)
    profiler = cProfile.Profile(time.process_time) if profile else None
    emitted = 0
    start = time.process_time()
    if profiler:
        profiler.enable()
    for batch in work:
        emitted += stage.process(batch).num_rows
    if profiler:
        profiler.disable()
    cpu = time.process_time() - start
    print(f"deduplicate (q18, {order}): {rows.num_rows:,} bids of {events:,} events in batches of {batch_rows:,}:"
          f" {emitted:,} rows emitted, {stage.state.entries:,} keys held, {cpu:.2f} CPU-s,"
          f" {cpu / rows.num_rows * 1e6:.2f} CPU-s per million rows", flush=True)
    if snapshot:
        _snapshot_and_restore(stage, order, update_before)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def _snapshot_and_restore(stage: DedupStage, order: str, update_before: bool) -> None:
    start = time.process_time()
    state = stage.snapshot(pa.RecordBatch.from_pylist([]))
    taken = time.process_time() - start
    fresh = DedupStage(descriptor(order, update_before))
    request = state.replace_schema_metadata({**state.schema.metadata, **RESTORE})
    start = time.process_time()
    fresh.restore(request)
    print(f"  snapshot of {state.num_rows:,} rows {taken:.2f} CPU-s, restore {time.process_time() - start:.2f} CPU-s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--order", choices=("rowtime", "proctime"), default="rowtime")
    parser.add_argument("--update-before", action="store_true", help="emit -U rows too (q18's upsert sink does not)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs")
    parser.add_argument("--snapshot", action="store_true", help="also time one snapshot and its restore")
    args = parser.parse_args()
    measure(args.events, args.batch, args.order, args.update_before, args.profile, args.snapshot)


if __name__ == "__main__":
    main()
