"""CPU time of the group_window stage alone (legacy `GROUP BY TUMBLE/HOP/SESSION(rowtime, ...)`),
per million rows, driven in process through the calls the JVM operator makes: `update` with the
batch's rows at the timer service's watermark, then, as the watermark advances between batches,
`fire` at the new one.

Shapes, over the bench generator's bids (`accelerator.bench.nexmark`, in event order; `--disorder`
moves each row's time back by up to that many ms, as rows of several Kafka partitions interleave),
with the bench's `WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND`:
- `session`: q11, COUNT(*) per bidder in SESSION windows of a 10 s gap.
- `tumble`: COUNT(*) and SUM(price) per bidder in TUMBLE windows of 10 s.
- `hop`: COUNT(*) per auction in HOP windows of 10 s sliding by 2 s (five windows a row).

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/group_window_stage.py [--events N] [--batch 5000]
        [--shapes session,tumble,hop] [--disorder 200] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np
import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupwindow.stage import GroupWindowStage
from nexmark_bids import TRANSPORT, bids
from stage_bench import BUDGET, key_bytes

WATERMARK_DELAY_MS = 4_000
COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
SUM_PRICE = {"function": "sum", "arg": "price", "acc": "BIGINT"}
SHAPES = {
    # shape: (key field, window, aggregates, output fields of the aggregates)
    "session": ("bidder", {"type": "session", "gap_ms": 10_000}, [COUNT_STAR], [("bid_count", "BIGINT NOT NULL")]),
    "tumble": ("bidder", {"type": "tumble", "size_ms": 10_000}, [COUNT_STAR, SUM_PRICE],
               [("bid_count", "BIGINT NOT NULL"), ("total", "BIGINT")]),
    "hop": ("auction", {"type": "hop", "size_ms": 10_000, "slide_ms": 2_000}, [COUNT_STAR],
            [("bid_count", "BIGINT NOT NULL")]),
}


def descriptor(shape: str) -> dict:
    key, window, aggregates, outputs = SHAPES[shape]
    inputs = TRANSPORT + [{"name": "$time", "type": "BIGINT NOT NULL"}]
    if any(a["arg"] == "price" for a in aggregates):
        inputs.append({"name": "price", "type": "BIGINT"})
    properties = ["window_start", "window_end"]
    fields = ([{"name": key, "type": "BIGINT"}] + [{"name": n, "type": t} for n, t in outputs]
              + [{"name": p, "type": "TIMESTAMP(3) NOT NULL"} for p in properties])
    return {"protocol": 1, "kind": "group_window", "name": "bench", "window": window,
            "keys": [{"name": key, "type": "BIGINT"}], "input": {"fields": inputs},
            "aggregates": [{"emit": True, **a} for a in aggregates], "window_properties": properties,
            "output": {"fields": fields}, "state": {"format": 1, "fingerprint": "ab" * 32}}


def calls(stage: GroupWindowStage, shape: str, events: int, batch_rows: int, disorder_ms: int,
          seed: int = 7) -> list[tuple[pa.RecordBatch, pa.RecordBatch]]:
    """Per batch, its `update` call (at the watermark before it) and the `fire` call of the
    watermark after it (the bounded out-of-orderness watermark: the greatest time seen, less the
    delay and 1 ms)."""
    rows = bids(events)
    key = SHAPES[shape][0]
    ids = rows.column(key).to_numpy()
    times = rows.column("dateTime").combine_chunks().field("millis").to_numpy().copy()
    if disorder_ms:
        times -= np.random.default_rng(seed).integers(0, disorder_ms, len(times))
    out, watermark, greatest = [], -(1 << 63), -(1 << 63)
    for start in range(0, len(times), batch_rows):
        at = slice(start, start + batch_rows)
        columns = [key_bytes(ids[at]), pa.array(ids[at] % 128, pa.int32()), pa.array(times[at], pa.int64())]
        if "price" in stage.spec.input_schema.names:
            columns.append(rows.column("price").slice(start, batch_rows).combine_chunks())
        update = pa.RecordBatch.from_arrays(columns, schema=stage.spec.input_schema).replace_schema_metadata(
            {b"accelerator.call": b"update", b"accelerator.state_budget": BUDGET,
             b"accelerator.progress": str(watermark).encode()})
        greatest = max(greatest, int(times[at].max()))
        watermark = max(watermark, greatest - WATERMARK_DELAY_MS - 1)
        fire = pa.RecordBatch.from_pylist([]).replace_schema_metadata(
            {b"accelerator.call": b"fire", b"accelerator.state_budget": BUDGET,
             b"accelerator.watermark": str(watermark).encode()})
        out.append((update, fire))
    return out


def measure(shape: str, events: int, batch_rows: int, disorder_ms: int, profile: bool) -> None:
    stage = GroupWindowStage(descriptor(shape))
    work = calls(stage, shape, events, batch_rows, disorder_ms)
    rows = sum(u.num_rows for u, _ in work)
    profiler = cProfile.Profile(time.process_time) if profile else None
    timers = fired = dropped = 0
    update_cpu = fire_cpu = 0.0
    if profiler:
        profiler.enable()
    for update, fire in work:
        start = time.process_time()
        answer = stage.process(update)
        middle = time.process_time()
        fired += stage.process(fire).num_rows
        fire_cpu += time.process_time() - middle
        update_cpu += middle - start
        timers += answer.num_rows
        dropped += int(answer.schema.metadata[b"accelerator.dropped"])
    if profiler:
        profiler.disable()
    cpu = update_cpu + fire_cpu
    print(f"{shape}: {rows:,} bids of {events:,} events in batches of {batch_rows:,}, disorder {disorder_ms} ms:"
          f" {timers:,} timer changes, {dropped:,} dropped, {fired:,} windows fired, {stage.state.entries:,}"
          f" entries held; {cpu:.2f} CPU-s, {cpu / rows * 1e6:.2f} CPU-s per million rows (update"
          f" {update_cpu / rows * 1e6:.2f}, fire {fire_cpu / rows * 1e6:.2f})", flush=True)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=5_000, help="rows per update (a batch leaves after"
                        " accelerator.batch.max-delay, 100 ms, about 5,000 bids at the bench's rate)")
    parser.add_argument("--shapes", default="session,tumble,hop")
    parser.add_argument("--disorder", type=int, default=200, help="ms a row's time may lag its position")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs per shape")
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        measure(shape, args.events, args.batch, args.disorder, args.profile)


if __name__ == "__main__":
    main()
