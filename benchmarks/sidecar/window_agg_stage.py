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

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "windowagg"))

from window_agg_client import Sidecar, descriptor  # noqa: E402

from accelerator.windowagg.stage import WindowAggStage  # noqa: E402
from cpu_clock import CpuClock  # noqa: E402
from stage_bench import CpuRun, arguments, key_bytes  # noqa: E402

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
PARTIAL_COUNT = {"function": "count1", "arg": "partial", "acc": "BIGINT NOT NULL"}
MAX_PRICE = {"function": "max", "arg": "price", "acc": "BIGINT"}
WATERMARK_DELAY_MS = 4_000
ROW_SPACING_MS = 0.1


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
            columns = {"$key": key_bytes(pairs[0]), "$key_group": pa.array(pairs[0] % 128, pa.int32()),
                       "$time": pa.array(pairs[1], pa.int64()), "partial": pa.array(counts.astype(np.int64))}
        else:
            key_ids = ids[start:start + batch_rows]
            columns = {"$key": key_bytes(key_ids), "$key_group": pa.array(key_ids % 128, pa.int32()),
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
        with CpuRun(profile) as run, CpuClock().timing(WindowAggStage, "process") as stage_clock:
            emitted = _drive(stage, batches)
        print(f"{shape}: {rows:,} rows in batches of {batch_rows:,}, {keys:,} keys: {emitted:,} windows emitted,"
              f" {run.per_million(rows)} with the transport, {stage_clock.seconds / rows * 1e6:.2f} in the stage",
              flush=True)
        run.print_profile(("cumulative", 25), ("tottime", 30))
    finally:
        sidecar.close()


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--keys", type=int, default=5_000)
    parser.add_argument("--shapes", default="hop,hop-global,tumble")
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        measure(shape, args.rows, args.batch, args.keys, args.profile)


if __name__ == "__main__":
    main()
