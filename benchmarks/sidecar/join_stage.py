"""CPU time of the join stage alone, per million input rows, driven through its `update` call as the
JVM operator makes it (both inputs' rows in one batch, in arrival order), in process, on the
hashmap and the RocksDB backend's order.

Shapes, after the Nexmark joins:
- `q3`: persons (right input, one row per person id) joined with auctions (left input, keyed by
  seller): three auctions per person, most by a recent person, a tenth by one of 10 hot sellers;
  many keys with few rows each.
- `q20`: bids (left input, keyed by auction) joined with auctions (right input, one row per auction
  id): 15 bids per auction, half of them on the 10 latest hot auctions (ids a multiple of 100), the
  rest on a recent auction; hot keys with thousands of rows.

Each row's `$order` is its BinaryRowData (BIGINT id, BIGINT value), distinct per row.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/join_stage.py [--rows N] [--shapes q3,q20]
        [--backends hashmap,rocksdb] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np
import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.join.stage import JoinStage

LEFT_FIELDS = [{"name": "lk", "type": "BIGINT NOT NULL"}, {"name": "a", "type": "BIGINT NOT NULL"}]
RIGHT_FIELDS = [{"name": "rk", "type": "BIGINT NOT NULL"}, {"name": "b", "type": "BIGINT NOT NULL"}]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]
BUDGET = str(1 << 40).encode()
LEFT, RIGHT = 0, 1


def descriptor(backend: str) -> dict:
    nullable = [{"name": f["name"], "type": f["type"].removesuffix(" NOT NULL")} for f in LEFT_FIELDS + RIGHT_FIELDS]
    return {"name": "bench", "join_type": "INNER", "left_arity": len(LEFT_FIELDS),
            "input": {"fields": TRANSPORT + nullable}, "output": {"fields": LEFT_FIELDS + RIGHT_FIELDS},
            "state": {"format": 2, "fingerprint": "ab" * 32, "backend": backend}}


def _binary_rows(first: np.ndarray, second: np.ndarray) -> pa.Array:
    """BinaryRowData of two BIGINTs (8 header bytes, RowKind INSERT and no NULLs, then the longs)."""
    raw = np.zeros((len(first), 3), dtype=np.int64)
    raw[:, 1], raw[:, 2] = first, second
    data = raw.tobytes()
    offsets = np.arange(len(first) + 1, dtype=np.int32) * 24
    return pa.Array.from_buffers(pa.binary(), len(first), [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def _stream(shape: str, rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(side, key) of each input row, in arrival order."""
    if shape == "q3":
        # 1 person : 3 auctions; a person's id is its number, an auction's seller a recent or hot person.
        is_person = rng.random(rows) < 0.25
        persons = np.cumsum(is_person)
        recent = np.maximum(persons - rng.integers(0, 50, rows), 0)
        hot = rng.random(rows) < 0.1
        seller = np.where(hot, rng.integers(0, 10, rows) * 97, recent)
        return np.where(is_person, RIGHT, LEFT), np.where(is_person, persons, seller)
    # q20: 1 auction : 15 bids; a bid's auction is one of the latest hot ones or a recent one.
    is_auction = rng.random(rows) < 1 / 16
    auctions = np.cumsum(is_auction)
    latest_hot = auctions // 100 * 100
    hot = rng.random(rows) < 0.5
    bid_on = np.where(hot, np.maximum(latest_hot - 100 * rng.integers(0, 10, rows), 0),
                      np.maximum(auctions - rng.integers(0, 200, rows), 0))
    return np.where(is_auction, RIGHT, LEFT), np.where(is_auction, auctions, bid_on)


def _batches(stage: JoinStage, shape: str, rows: int, batch_rows: int, seed: int = 7) -> list[pa.RecordBatch]:
    rng = np.random.default_rng(seed)
    sides, keys = _stream(shape, rows, rng)
    values = np.arange(rows, dtype=np.int64)
    metadata = {b"accelerator.call": b"update", b"accelerator.state_budget": BUDGET}
    out = []
    for start in range(0, rows, batch_rows):
        s, k, v = sides[start:start + batch_rows], keys[start:start + batch_rows], values[start:start + batch_rows]
        key_bytes = _binary_rows(k, np.zeros(len(k), dtype=np.int64)).cast(pa.binary())
        left, right = s == LEFT, s == RIGHT
        columns = [key_bytes, pa.array(k % 128, pa.int32()), pa.array(s, pa.int8()), _binary_rows(k, v),
                   pa.array(k, pa.int64(), mask=~left), pa.array(v, pa.int64(), mask=~left),
                   pa.array(k, pa.int64(), mask=~right), pa.array(v, pa.int64(), mask=~right)]
        out.append(pa.RecordBatch.from_arrays(columns, schema=stage.spec.input_schema).replace_schema_metadata(metadata))
    return out


def measure(shape: str, backend: str, rows: int, batch_rows: int, profile: bool) -> None:
    stage = JoinStage(descriptor(backend))
    batches = _batches(stage, shape, rows, batch_rows)
    profiler = cProfile.Profile() if profile else None
    emitted = 0
    start = time.process_time()
    if profiler:
        profiler.enable()
    for batch in batches:
        emitted += stage.process(batch).num_rows
    if profiler:
        profiler.disable()
    cpu = time.process_time() - start
    held = sum(side.num_rows for side in stage.state.sides)
    state_bytes = stage.state.nbytes() + (0 if stage.key_maps is None else stage.key_maps.nbytes())
    print(f"{shape} {backend}: {rows:,} rows in batches of {batch_rows:,}: {emitted:,} joined rows,"
          f" {cpu:.2f} CPU-s, {cpu / rows * 1e6:.2f} CPU-s per million input rows; state {state_bytes:,} bytes in"
          f" memory for {held:,} held rows ({state_bytes / max(held, 1):.0f} bytes per held row)", flush=True)
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--shapes", default="q3,q20")
    parser.add_argument("--backends", default="hashmap,rocksdb")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs per run")
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        for backend in args.backends.split(","):
            measure(shape, backend, args.rows, args.batch, args.profile)


if __name__ == "__main__":
    main()
