"""CPU time of the join stage alone, driven through its calls as the JVM operator makes them (both
inputs' rows in one `update` batch, in arrival order; a checkpoint's `snapshot` taken in pieces
every `--checkpoint-every` batches, 25 by default as docs/architecture.md's figures), in process,
on the hashmap and the RocksDB backend's order; with the last checkpoint's bytes (the Arrow
buffers of its pieces, which the JVM writes into Flink's checkpoint per key group).

Shapes:
- `q20`: Nexmark q20's join, from the benchmark's own Nexmark generator (`accelerator.bench.nexmark`):
  the bids (left input: auction, bidder, price, channel, url, dateTime, extra) joined with the
  auctions of category 10 (right input: the auction's ten fields) on the auction id, in event order.
  About 77 bids per such auction; half the bids go to the current hot auction, the rest to one of the
  last 100 auctions or the next 10 (so some bids arrive before their auction); every row is held.
- `q4`: Nexmark q4's join inputs (every auction, left, with the bids, right, on the auction id),
  without its time condition: the pairs the condition then filters.
- `q3`: persons (right input, one row per person id) joined with auctions (left input, keyed by
  seller): three auctions per person, most by a recent person, a tenth by one of 10 hot sellers;
  many keys with few rows each; two BIGINT fields a side.

`--rows` counts Nexmark events for q20 and q4 (the CPU is then per million events, as in
docs/performance.md's stateful section) and input rows for q3. Each row's `$order` is the
BinaryRowData Flink writes for it (strings of up to 7 bytes inline, longer ones in the variable
part; a TIMESTAMP(3) as its epoch milliseconds), its `$key` the key's.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/join_stage.py [--rows N] [--batch 4096]
        [--shapes q20,q4,q3] [--backends hashmap,rocksdb] [--checkpoint-every 25] [--profile]
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.bench import nexmark
from accelerator.join.stage import JoinStage
from stage_bench import CpuRun, arguments, call_metadata

TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]
#: The JVM's snapshot pieces are at most `accelerator.batch.max-bytes` (4 mb by default).
PIECE_BYTES = 4 << 20
LEFT, RIGHT = 0, 1
STRING = "VARCHAR(2147483647)"
BID_FIELDS = [("auction", "BIGINT"), ("bidder", "BIGINT"), ("price", "BIGINT"), ("channel", STRING), ("url", STRING),
              ("dateTime", "TIMESTAMP(3)"), ("extra", STRING)]
AUCTION_FIELDS = [("id", "BIGINT"), ("itemName", STRING), ("description", STRING), ("initialBid", "BIGINT"),
                  ("reserve", "BIGINT"), ("dateTime", "TIMESTAMP(3)"), ("expires", "TIMESTAMP(3)"), ("seller", "BIGINT"),
                  ("category", "BIGINT"), ("extra", STRING)]
PAIR_FIELDS = [("k", "BIGINT"), ("v", "BIGINT")]


def descriptor(backend: str, left: list[tuple[str, str]], right: list[tuple[str, str]]) -> dict:
    names = [n for n, _ in left]
    right = [(n + "0" if n in names else n, t) for n, t in right]  # the planner's names for a repeated field
    fields = [{"name": n, "type": t} for n, t in left + right]
    return {"name": "bench", "join_type": "INNER", "left_arity": len(left),
            "input": {"fields": TRANSPORT + fields}, "output": {"fields": fields},
            "state": {"format": 4, "fingerprint": "ab" * 32, "backend": backend}}


def binary_rows(columns: list[pa.Array]) -> pa.Array:
    """Flink's BinaryRowData of each row of `columns` (BIGINT, TIMESTAMP(3) or STRING, no NULLs),
    RowKind INSERT: the null bits' word, one 8-byte word per field (a long, a timestamp's millis, a
    string of up to 7 bytes with its length in the last byte's low bits and the top bit set, or a
    longer one's offset and length), then the longer strings, each padded to whole words."""
    n = len(columns[0])
    words = [np.zeros(n, dtype=np.uint64)]
    tails, offset = [], np.full(n, 8 + 8 * len(columns), dtype=np.uint64)
    for column in columns:
        if pa.types.is_struct(column.type):
            column = column.field("millis")
        if not pa.types.is_string(column.type):
            words.append(column.to_numpy(zero_copy_only=False).astype(np.int64).view(np.uint64))
            continue
        column = column.cast(pa.binary())
        lengths = pc.binary_length(column).to_numpy(zero_copy_only=False).astype(np.uint64)
        inline = pa.array(lengths <= 7)
        zeros = pa.scalar(b"\0" * 8)
        short = pc.binary_slice(pc.binary_join_element_wise(pc.if_else(inline, column, b""), zeros, b""), 0, 8)
        short_words = np.frombuffer(short.buffers()[2], dtype=np.uint64, count=n) \
            | ((np.uint64(0x80) | lengths) << np.uint64(56))
        words.append(np.where(lengths <= 7, short_words, (offset << np.uint64(32)) | lengths))
        padding = (np.uint64(8) - lengths % np.uint64(8)) % np.uint64(8)
        pads = pc.take(pa.array([b"\0" * i for i in range(8)], pa.binary()), pa.array(padding.astype(np.int64)))
        tails.append(pc.if_else(inline, pa.scalar(b""), pc.binary_join_element_wise(column, pads, b"")))
        offset = offset + np.where(lengths <= 7, 0, lengths + padding).astype(np.uint64)
    fixed = np.stack(words, axis=1).reshape(-1).view(np.uint8)
    fixed_rows = pa.FixedSizeBinaryArray.from_buffers(pa.binary(8 * len(words)), n, [None, pa.py_buffer(fixed)])
    return pc.binary_join_element_wise(fixed_rows.cast(pa.binary()), *tails, b"") if tails else fixed_rows.cast(pa.binary())


class Stream:
    """A shape's input rows in arrival order: each row's side and key, and each side's field columns."""

    def __init__(self, sides: np.ndarray, keys: np.ndarray, fields: tuple[list[pa.Array], list[pa.Array]],
                 events: int):
        self.sides, self.keys, self.fields, self.events = sides, keys, fields, events


def nexmark_stream(events: int, q20: bool) -> Stream:
    """The q20 (bids, then auctions of category 10) or q4 (auctions, then bids) join's inputs."""
    parts = []
    for chunk in nexmark.events(events):
        auction_at, auctions = chunk.rows[nexmark.AUCTION]
        bid_at, bids = chunk.rows[nexmark.BID]
        if q20:
            keep = pc.equal(auctions.field("category"), 10).to_numpy(zero_copy_only=False)
            auction_at, auctions = auction_at[keep], auctions.filter(pa.array(keep))
        parts.append((chunk.first + auction_at, auctions, chunk.first + bid_at, bids))
    auction_at = np.concatenate([p[0] for p in parts])
    bid_at = np.concatenate([p[2] for p in parts])
    auctions = pa.concat_arrays([p[1] for p in parts])
    bids = pa.concat_arrays([p[3] for p in parts])
    auction_side, bid_side = (RIGHT, LEFT) if q20 else (LEFT, RIGHT)
    at = np.concatenate([auction_at, bid_at])
    order = np.argsort(at, kind="stable")
    sides = np.concatenate([np.full(len(auction_at), auction_side), np.full(len(bid_at), bid_side)])[order]
    keys = np.concatenate([auctions.field("id").to_numpy(zero_copy_only=False),
                           bids.field("auction").to_numpy(zero_copy_only=False)])[order]
    # Each side's fields in arrival order of that side's rows (the events are in order within each kind).
    fields = [None, None]
    fields[auction_side] = [auctions.field(i) for i in range(auctions.type.num_fields)]
    fields[bid_side] = [bids.field(i) for i in range(bids.type.num_fields)]
    return Stream(sides.astype(np.int8), keys.astype(np.int64), (fields[LEFT], fields[RIGHT]), events)


def q3_stream(rows: int, rng: np.random.Generator) -> Stream:
    # 1 person : 3 auctions; a person's id is its number, an auction's seller a recent or hot person.
    is_person = rng.random(rows) < 0.25
    persons = np.cumsum(is_person)
    recent = np.maximum(persons - rng.integers(0, 50, rows), 0)
    hot = rng.random(rows) < 0.1
    seller = np.where(hot, rng.integers(0, 10, rows) * 97, recent)
    sides, keys = np.where(is_person, RIGHT, LEFT).astype(np.int8), np.where(is_person, persons, seller)
    values = np.arange(rows, dtype=np.int64)
    fields = tuple([pa.array(keys[sides == side]), pa.array(values[sides == side])] for side in (LEFT, RIGHT))
    return Stream(sides, keys.astype(np.int64), fields, rows)


def _batches(stage: JoinStage, stream: Stream, batch_rows: int) -> list[pa.RecordBatch]:
    metadata = call_metadata(b"update")
    sides, keys = stream.sides, stream.keys
    key_bytes = binary_rows([pa.array(keys)])
    orders, values = [], []
    for side in (LEFT, RIGHT):
        orders.append(binary_rows(stream.fields[side]))
    # Per row: its place among its side's rows.
    place = np.empty(len(sides), dtype=np.int64)
    for side in (LEFT, RIGHT):
        mine = np.flatnonzero(sides == side)
        place[mine] = np.arange(len(mine))
    schema = stage.spec.input_schema
    out = []
    for start in range(0, len(sides), batch_rows):
        s = sides[start:start + batch_rows]
        p = place[start:start + batch_rows]
        columns = [key_bytes.slice(start, len(s)), pa.array(keys[start:start + batch_rows] % 128, pa.int32()),
                   pa.array(s, pa.int8())]
        order_parts = []
        for side in (LEFT, RIGHT):
            # This side's rows' values at their batch rows, NULL on the other side's rows.
            at = pa.array(np.where(s == side, p, 0), pa.int64(), mask=s != side)
            order_parts.append(orders[side].take(at))
            values.append([_take(c, at) for c in stream.fields[side]])
        columns.append(pc.if_else(pa.array(s == LEFT), order_parts[LEFT], order_parts[RIGHT]))
        columns += values[-2] + values[-1]
        arrays = [c.cast(f.type) for c, f in zip(columns, schema)]
        out.append(pa.RecordBatch.from_arrays(arrays, schema=schema).replace_schema_metadata(metadata))
    return out


def _take(column: pa.Array, at: pa.Array) -> pa.Array:
    """`column.take(at)`; a timestamp's parts stay non-null under a NULL row, as the type wants."""
    if not pa.types.is_struct(column.type):
        return column.take(at)
    parts = column.take(pc.fill_null(at, 0))
    return pa.StructArray.from_arrays([parts.field(i) for i in range(parts.type.num_fields)],
                                      fields=list(column.type), mask=at.is_null())


def _snapshot(stage: JoinStage) -> tuple[int, int]:
    """A checkpoint's snapshot, piece by piece as the JVM takes it; its rows and bytes."""
    rows, size, piece, pieces = 0, 0, 0, 1
    while piece < pieces:
        request = pa.RecordBatch.from_pylist([], schema=pa.schema([])).replace_schema_metadata(
            {b"accelerator.call": b"snapshot", b"accelerator.snapshot_piece": str(piece).encode(),
             b"accelerator.snapshot_piece_bytes": str(PIECE_BYTES).encode()})
        answer = stage.process(request)
        pieces = int(answer.schema.metadata[b"accelerator.snapshot_pieces"])
        rows += answer.num_rows
        size += answer.nbytes
        piece += 1
    return rows, size


def measure(shape: str, backend: str, rows: int, batch_rows: int, checkpoint_every: int, profile: bool) -> None:
    if shape == "q3":
        stream = q3_stream(rows, np.random.default_rng(7))
        fields = (PAIR_FIELDS, PAIR_FIELDS)
    else:
        stream = nexmark_stream(rows, q20=shape == "q20")
        fields = (BID_FIELDS, AUCTION_FIELDS) if shape == "q20" else (AUCTION_FIELDS, BID_FIELDS)
    stage = JoinStage(descriptor(backend, *fields))
    batches = _batches(stage, stream, batch_rows)
    emitted = snapshot_rows = checkpoints = checkpoint_bytes = 0
    snapshot_cpu = 0.0
    with CpuRun(profile) as run:
        for number, batch in enumerate(batches, 1):
            emitted += stage.process(batch).num_rows
            if checkpoint_every and number % checkpoint_every == 0:
                with CpuRun(False) as snapshot:
                    rows_written, checkpoint_bytes = _snapshot(stage)
                    snapshot_rows += rows_written
                snapshot_cpu += snapshot.seconds
                checkpoints += 1
    held = sum(side.num_rows for side in stage.state.sides)
    state_bytes = stage.state.nbytes() + (0 if stage.key_maps is None else stage.key_maps.nbytes())
    per = "events" if shape != "q3" else "input rows"
    print(f"{shape} {backend}: {stream.events:,} {per}, {len(stream.sides):,} input rows in batches of {batch_rows:,}:"
          f" {emitted:,} joined rows, {checkpoints} checkpoints ({snapshot_rows:,} rows, {snapshot_cpu:.2f} CPU-s;"
          f" the last {checkpoint_bytes:,} bytes);"
          f" {run.per_million(stream.events, per)}; state {state_bytes:,} bytes in"
          f" memory for {held:,} held rows ({state_bytes / max(held, 1):.0f} bytes per held row)", flush=True)
    run.print_profile(("cumulative", 30), ("tottime", 30))


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=4_096)
    parser.add_argument("--shapes", default="q20,q4,q3")
    parser.add_argument("--backends", default="hashmap,rocksdb")
    parser.add_argument("--checkpoint-every", type=int, default=25, help="batches between snapshots (0: none)")
    args = parser.parse_args()
    for shape in args.shapes.split(","):
        for backend in args.backends.split(","):
            measure(shape, backend, args.rows, args.batch, args.checkpoint_every, args.profile)


if __name__ == "__main__":
    main()
