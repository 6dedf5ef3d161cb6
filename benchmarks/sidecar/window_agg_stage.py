"""CPU time of the window_agg stage alone, per million rows, driven through the calls the JVM
operator makes (`update`, then at each advancing watermark `flush` and `fire`), in process.

Shapes, after the stateful Nexmark queries:
- `hop`: q5_agg, COUNT(*) per auction in HOP windows of 10 s sliding by 2 s; `--keys` auctions
  live at once, a few hot ones taking half the rows; rows 0.1 ms apart in time order.
- `hop-global`: the same as the global phase of a two-phase plan, merging partial counts per
  (auction, slice) that a local phase sends once per batch.
- `tumble`: q7_agg, MAX(price) per 10 s TUMBLE window under one global key.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/window_agg_stage.py [--rows N] [--profile SHAPE]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "windowagg"))

from window_agg_client import Sidecar, descriptor  # noqa: E402

from accelerator.windowagg.stage import WindowAggStage  # noqa: E402
from cpu_clock import CpuClock  # noqa: E402

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
PARTIAL_COUNT = {"function": "count1", "arg": "partial", "acc": "BIGINT NOT NULL"}
MAX_PRICE = {"function": "max", "arg": "price", "acc": "BIGINT"}
WATERMARK_DELAY_MS = 4_000
ROW_SPACING_MS = 0.1


def _key_bytes(ids: np.ndarray) -> pa.Array:
    """Each id as a BinaryRowData of one BIGINT field (8 header bytes, then the long)."""
    raw = np.zeros((len(ids), 2), dtype=np.int64)
    raw[:, 1] = ids
    return pa.array([r.tobytes() for r in raw], pa.binary())


def _auctions(rows: int, keys: int, rng: np.random.Generator) -> np.ndarray:
    """Auction ids: half the rows on 10 hot auctions, the rest spread over `keys` auctions whose
    ids move forward with time (old auctions close, new ones open), as Nexmark's bids do."""
    position = np.arange(rows)
    hot = rng.random(rows) < 0.5
    moving = position * keys // max(rows, 1)
    spread = moving + rng.integers(0, keys, rows)
    return np.where(hot, rng.integers(0, 10, rows), 10 + spread)


def _drive(stage, batches, flush_and_fire: bool = True) -> int:
    emitted = 0
    for batch, watermark in batches:
        stage.update(batch, progress=watermark)
        if flush_and_fire:
            stage.flush(watermark)
            emitted += stage.fire_batch(watermark).num_rows
    return emitted


def _batches(shape: str, stage, rows: int, batch_rows: int, keys: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    times = (np.arange(rows) * ROW_SPACING_MS).astype(np.int64) + 1_767_225_600_000
    if shape == "tumble":
        ids = np.zeros(rows, dtype=np.int64)
    else:
        ids = _auctions(rows, keys, rng)
    out = []
    for start in range(0, rows, batch_rows):
        t = times[start:start + batch_rows]
        watermark = int(t[-1]) - WATERMARK_DELAY_MS
        if shape == "hop-global":
            # The local phase's partials: one per (auction, slice) of the batch.
            slices = (t // 2_000 + 1) * 2_000
            pairs, counts = np.unique(np.stack([ids[start:start + batch_rows], slices]), axis=1, return_counts=True)
            columns = {"$key": _key_bytes(pairs[0]), "$key_group": pa.array(pairs[0] % 128, pa.int32()),
                       "$time": pa.array(pairs[1], pa.int64()), "partial": pa.array(counts.astype(np.int64))}
        else:
            key_ids = ids[start:start + batch_rows]
            columns = {"$key": _key_bytes(key_ids), "$key_group": pa.array(key_ids % 128, pa.int32()),
                       "$time": pa.array(t, pa.int64())}
            if shape == "tumble":
                columns["price"] = pa.array(rng.integers(1, 10_000_000, len(t)), pa.int64())
        out.append((pa.RecordBatch.from_arrays(list(columns.values()), schema=stage.input_schema), watermark))
    return out


def _open(sidecar: Sidecar, shape: str):
    if shape == "hop":
        return sidecar.open(descriptor([COUNT_STAR], size_ms=10_000, slide_ms=2_000))
    if shape == "hop-global":
        return sidecar.open(descriptor([PARTIAL_COUNT], phase="global", size_ms=10_000, slide_ms=2_000,
                                       arguments={"partial": "BIGINT NOT NULL"}))
    return sidecar.open(descriptor([MAX_PRICE], size_ms=10_000, arguments={"price": "BIGINT"}))


def measure(shape: str, rows: int, batch_rows: int, keys: int, profile: bool) -> None:
    sidecar = Sidecar()
    try:
        stage = _open(sidecar, shape)
        batches = _batches(shape, stage, rows, batch_rows, keys)
        profiler = cProfile.Profile() if profile else None
        start = time.process_time()
        if profiler:
            profiler.enable()
        with CpuClock().timing(WindowAggStage, "process") as stage_clock:
            emitted = _drive(stage, batches)
        if profiler:
            profiler.disable()
        cpu = time.process_time() - start
        print(f"{shape}: {rows:,} rows in batches of {batch_rows:,}, {keys:,} keys: {emitted:,} windows emitted,"
              f" {cpu:.2f} CPU-s, {cpu / rows * 1e6:.2f} CPU-s per million rows with the transport,"
              f" {stage_clock.seconds / rows * 1e6:.2f} in the stage", flush=True)
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
    finally:
        sidecar.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--keys", type=int, default=5_000)
    parser.add_argument("--shapes", default="hop,hop-global,tumble")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs per shape")
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        measure(shape, args.rows, args.batch, args.keys, args.profile)


if __name__ == "__main__":
    main()
