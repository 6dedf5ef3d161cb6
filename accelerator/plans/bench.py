"""Per-batch cost of running a stage plan: `python -m accelerator.plans.bench [rows ...]`.

Runs the golden Nexmark q1 and q2 descriptors on synthetic decoded bid batches and prints the
mean time of `StagePlan.execute` per batch, and the share of it spent consuming the Substrait
plan again (the part a reusable physical plan would save).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyarrow as pa
from datafusion.substrait import Consumer

from accelerator.formats import timestamps
from accelerator.plans.stage import DECODED, StagePlan

GOLDEN = Path(__file__).resolve().parents[2] / "substrait-plans"


def bids(rows: int, schema: pa.Schema) -> pa.RecordBatch:
    columns = {
        "auction": pa.array([1000 + i % 5000 for i in range(rows)], pa.int64()),
        "bidder": pa.array([i % 997 for i in range(rows)], pa.int64()),
        "price": pa.array([100 + i * 7 for i in range(rows)], pa.int64()),
        "channel": pa.array([("Apple", "Google", "channel-7")[i % 3] for i in range(rows)]),
        "url": pa.array([f"https://www.nexmark.com/a/b/item.htm?query={i}" for i in range(rows)]),
        "dateTime": timestamps.from_epoch_nanos([1_767_225_600_000_000_000 + i for i in range(rows)]),
        "extra": pa.array(["x" * (i % 20) for i in range(rows)]),
    }
    return pa.RecordBatch.from_arrays([columns[f.name] for f in schema], schema=schema)


def mean_seconds(action, repeat: int) -> float:
    action()
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat


def main(sizes: list[int]) -> None:
    for query in ("nexmark_q2", "nexmark_q1"):
        plan = StagePlan(json.loads((GOLDEN / f"{query}.json").read_text()))
        for rows in sizes:
            batch = bids(rows, plan.decoded_schema)
            repeat = max(20, 2_000_000 // max(rows, 1) // 10)
            total = mean_seconds(lambda: plan.execute(batch), repeat)
            plan._ctx.register_record_batches(DECODED, [[batch]])
            consume = mean_seconds(lambda: Consumer.from_substrait_plan(plan._ctx, plan._plan), repeat)
            plan._ctx.deregister_table(DECODED)
            print(f"{query} {rows:>7} rows: {total * 1e6:9.0f} us/batch ({total / max(rows, 1) * 1e9:6.0f} ns/row),"
                  f" of which re-consuming the plan {consume * 1e6:5.0f} us")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [0, 8192, 65536])
