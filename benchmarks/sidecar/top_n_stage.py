"""CPU time of the top_n stage alone, per million rows, driven through its `update` call in process
(no transport) in the shape of Nexmark q19: `ROW_NUMBER() OVER (PARTITION BY auction ORDER BY
price DESC) <= 10` with the row number, over the bench generator's bids (half of them on the
latest hot auction), in batches as the JVM operator sends them (`--batch`: a batch leaves after
`accelerator.batch.max-delay`, 100 ms, about 5,000 bids at the bench's rate). `--profile` prints
cProfile's top costs; `--snapshot` also times a checkpoint's snapshot and its restore.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/top_n_stage.py [--events N] [--batch 5000]
        [--n 10] [--update-before] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.rank.stage import TopNStage
from nexmark_bids import BID_FIELDS, RESTORE, TRANSPORT, batches, bids


def descriptor(n: int, update_before: bool) -> dict:
    return {"name": "bench", "keys": [f for f in BID_FIELDS if f["name"] == "auction"],
            "sort": [{"name": "price", "type": "BIGINT", "ascending": False, "nulls_last": True}],
            "rank_end": n, "output_rank_number": True, "generate_update_before": update_before,
            "input": {"fields": TRANSPORT + BID_FIELDS},
            "output": {"fields": BID_FIELDS + [{"name": "rank_number", "type": "BIGINT NOT NULL"}]},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def measure(events: int, batch_rows: int, n: int, update_before: bool, profile: bool, snapshot: bool) -> None:
    stage = TopNStage(descriptor(n, update_before))
    rows = bids(events)
    work = batches(rows, ("auction",), stage.spec.input_schema, batch_rows)
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
    print(f"top_n (q19, N = {n}): {rows.num_rows:,} bids of {events:,} events in batches of {batch_rows:,}:"
          f" {emitted:,} rows emitted, {stage.state.entries:,} keys held, {cpu:.2f} CPU-s,"
          f" {cpu / rows.num_rows * 1e6:.2f} CPU-s per million rows", flush=True)
    if snapshot:
        _snapshot_and_restore(stage, n, update_before)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def _snapshot_and_restore(stage: TopNStage, n: int, update_before: bool) -> None:
    start = time.process_time()
    state = stage.snapshot(pa.RecordBatch.from_pylist([]))
    taken = time.process_time() - start
    fresh = TopNStage(descriptor(n, update_before))
    request = state.replace_schema_metadata({**state.schema.metadata, **RESTORE})
    start = time.process_time()
    fresh.restore(request)
    print(f"  snapshot of {state.num_rows:,} rows {taken:.2f} CPU-s, restore {time.process_time() - start:.2f} CPU-s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--update-before", action="store_true", help="emit -U rows too (q19's upsert sink does not)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs")
    parser.add_argument("--snapshot", action="store_true", help="also time one snapshot and its restore")
    args = parser.parse_args()
    measure(args.events, args.batch, args.n, args.update_before, args.profile, args.snapshot)


if __name__ == "__main__":
    main()
