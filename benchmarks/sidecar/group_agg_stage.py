"""CPU time of the group_agg stage alone, per million rows, driven through its `update` call in
process (no transport): COUNT(*) and SUM(price) per key over many keys, the shape where finding
each row's slot (`KeySlots`) weighs most.

Rows: spread uniformly over `--keys` keys (with `--hot 0.5`, half of them on 10 hot keys instead),
in batches of `--batch` rows, as the JVM operator sends them; keys are BinaryRowData of one
BIGINT, as Flink writes them.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/group_agg_stage.py [--rows N] [--keys K] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np
import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupagg.stage import GroupAggStage
from cpu_clock import CpuClock

UPDATE = {b"accelerator.call": b"update", b"accelerator.state_budget": str(1 << 34).encode()}


def _descriptor() -> dict:
    return {"name": "bench", "keys": [{"name": "k", "type": "BIGINT NOT NULL"}],
            "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                                 {"name": "$key_group", "type": "INT NOT NULL"},
                                 {"name": "price", "type": "BIGINT"}]},
            "aggregates": [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "emit": True},
                           {"function": "sum", "arg": "price", "acc": "BIGINT", "emit": True}],
            "generate_update_before": True,
            "output": {"fields": [{"name": "k", "type": "BIGINT NOT NULL"}, {"name": "v0", "type": "BIGINT NOT NULL"},
                                  {"name": "v1", "type": "BIGINT"}]},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def _key_bytes(ids: np.ndarray) -> pa.Array:
    """Each id as a BinaryRowData of one BIGINT field (8 header bytes, then the long)."""
    raw = np.zeros((len(ids), 2), dtype=np.int64)
    raw[:, 1] = ids
    return pa.array([r.tobytes() for r in raw], pa.binary())


def _batches(stage: GroupAggStage, rows: int, batch_rows: int, keys: int, hot: float,
             seed: int = 7) -> list[pa.RecordBatch]:
    rng = np.random.default_rng(seed)
    ids = np.where(rng.random(rows) < hot, rng.integers(0, 10, rows), 10 + rng.integers(0, keys, rows))
    prices = rng.integers(1, 10_000_000, rows)
    out = []
    for start in range(0, rows, batch_rows):
        key_ids = ids[start:start + batch_rows]
        columns = [_key_bytes(key_ids), pa.array(key_ids % 128, pa.int32()),
                   pa.array(prices[start:start + batch_rows], pa.int64())]
        out.append(pa.RecordBatch.from_arrays(columns, schema=stage.spec.input_schema).replace_schema_metadata(UPDATE))
    return out


def measure(rows: int, batch_rows: int, keys: int, hot: float, profile: bool) -> None:
    stage = GroupAggStage(_descriptor())
    batches = _batches(stage, rows, batch_rows, keys, hot)
    slots_clock = CpuClock()
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    start = time.process_time()
    with slots_clock.timing(stage.state.key_slots, "slots"):
        emitted = sum(stage.process(b).num_rows for b in batches)
    cpu = time.process_time() - start
    if profiler:
        profiler.disable()
    print(f"group_agg: {rows:,} rows in batches of {batch_rows:,}, {keys:,} keys, {hot:.0%} hot: {emitted:,} rows emitted,"
          f" {stage.state.entries:,} keys held, {cpu:.2f} CPU-s, {cpu / rows * 1e6:.2f} CPU-s per million rows,"
          f" {slots_clock.seconds / rows * 1e6:.2f} of them finding slots",
          flush=True)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--hot", type=float, default=0.0, help="the share of rows on 10 hot keys")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs")
    args = parser.parse_args()
    measure(args.rows, args.batch, args.keys, args.hot, args.profile)


if __name__ == "__main__":
    main()
