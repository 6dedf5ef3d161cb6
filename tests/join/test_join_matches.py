"""What the join stage answers per batch, against what Flink 2.2.1's StreamingJoinOperator emits
on the RocksDB backend (docs/design/stateful-joins.md): per input row, in arrival order, the row
joined with each row its key holds on the other side, a row that arrived n times n times in a row,
ordered as RocksDB iterates a MapState: by the serialized row, the 4-byte big-endian length first
(shorter rows first), then the bytes, unsigned. Expected rows are worked out by hand, and a random
stream is checked against a row-at-a-time model of those rules written here."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.join.stage import JoinStage, JoinStateError

BUDGET = str(1 << 30).encode()
L, R = 0, 1
LEFT = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "a", "type": "BIGINT NOT NULL"}]
RIGHT = [{"name": "k0", "type": "VARCHAR(2147483647)"}, {"name": "b", "type": "VARCHAR(2147483647)"}]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]


def descriptor(join_type: str = "INNER", fingerprint: str = "ab" * 32) -> dict:
    nullable = [{"name": f["name"], "type": f["type"].removesuffix(" NOT NULL")} for f in LEFT + RIGHT]
    return {"name": "j", "join_type": join_type, "left_arity": len(LEFT),
            "input": {"fields": TRANSPORT + nullable}, "output": {"fields": LEFT + RIGHT},
            "state": {"format": 3, "fingerprint": fingerprint, "backend": "rocksdb"}}


def call(s: JoinStage, name: str, batch: pa.RecordBatch, **extra: str) -> pa.RecordBatch:
    metadata = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    metadata.update({k.encode(): v.encode() for k, v in extra.items()})
    return s.process(batch.replace_schema_metadata(metadata))


def update(s: JoinStage, rows: list[tuple]) -> list[tuple]:
    """`rows` are (side, key, value, order bytes); answers (batch row, kind, k, a, k0, b) in order."""
    def column(side: int, at: int, arrow_type: pa.DataType) -> pa.Array:
        return pa.array([r[at] if r[0] == side else None for r in rows], arrow_type)
    batch = pa.RecordBatch.from_arrays(
        [pa.array([r[1].encode() for r in rows], pa.binary()), pa.array([_key_group(r[1]) for r in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int8()), pa.array([r[3] for r in rows], pa.binary()),
         column(L, 1, pa.string()), column(L, 2, pa.int64()), column(R, 1, pa.string()), column(R, 2, pa.string())],
        schema=s.spec.input_schema)
    return [tuple(r.values()) for r in call(s, "update", batch).to_pylist()]


def _key_group(key: str) -> int:
    return sum(key.encode()) % 128


def left(key: str, a: int, order: bytes) -> tuple:
    return L, key, a, order


def right(key: str, b: str, order: bytes) -> tuple:
    return R, key, b, order


def test_a_row_joins_the_other_sides_rows_shorter_serialized_rows_first_then_by_unsigned_bytes():
    s = JoinStage(descriptor())
    assert update(s, [right("x", "r80", b"\x80\x00"), right("x", "r7f", b"\x7f\x00"), right("x", "long", b"\x00\x00\x00"),
                      right("x", "ff", b"\xff")]) == []
    # Length first: the 1-byte row before the 2-byte ones, 0x7f before 0x80 (unsigned), the 3-byte row last.
    assert update(s, [left("x", 1, b"L1")]) == [
        (0, 0, "x", 1, "x", "ff"), (0, 0, "x", 1, "x", "r7f"), (0, 0, "x", 1, "x", "r80"),
        (0, 0, "x", 1, "x", "long")]


def test_a_row_that_arrived_twice_joins_twice_in_a_row_at_its_place():
    s = JoinStage(descriptor())
    update(s, [left("x", 2, b"\x02"), left("x", 1, b"\x01"), left("x", 2, b"\x02")])
    assert update(s, [right("x", "r", b"R")]) == [(0, 0, "x", 1, "x", "r"), (0, 0, "x", 2, "x", "r"),
                                                  (0, 0, "x", 2, "x", "r")]
    # Its count grows across batches too.
    update(s, [left("x", 1, b"\x01")])
    assert update(s, [right("x", "q", b"Q")]) == [(0, 0, "x", 1, "x", "q"), (0, 0, "x", 1, "x", "q"),
                                                  (0, 0, "x", 2, "x", "q"), (0, 0, "x", 2, "x", "q")]


def test_within_a_batch_a_row_joins_only_the_other_sides_earlier_rows_and_keys_do_not_mix():
    s = JoinStage(descriptor())
    assert update(s, [left("x", 1, b"\x01"), left("y", 9, b"\x09"), right("x", "r", b"R"), left("x", 0, b"\x00"),
                      right("x", "s", b"S"), right("y", "t", b"T")]) == [
        (2, 0, "x", 1, "x", "r"),
        (3, 0, "x", 0, "x", "r"),
        (4, 0, "x", 0, "x", "s"), (4, 0, "x", 1, "x", "s"),
        (5, 0, "y", 9, "y", "t")]


def test_a_restored_snapshot_split_by_key_group_answers_as_the_stage_it_came_from():
    s = JoinStage(descriptor())
    update(s, [left("x", 1, b"\x01"), left("x", 1, b"\x01"), right("y", "r", b"R"), left("y", 3, b"\x03"),
               right("x", "s", b"S")])
    state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
    groups = sorted({_key_group("x"), _key_group("y")})
    assert len(groups) == 2
    restored = []
    for group in groups:
        r = JoinStage(descriptor())
        call(r, "restore", state.filter(pa.compute.equal(state.column("$key_group"), group)),
             **{"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
                "accelerator.key_group_start": str(group), "accelerator.key_group_end": str(group)})
        restored.append(r)
    rows = [right("x", "q", b"Q"), left("y", 2, b"\x02"), left("x", 0, b"\x00")]
    want = update(s, rows)
    assert want == [(0, 0, "x", 1, "x", "q"), (0, 0, "x", 1, "x", "q"), (1, 0, "y", 2, "y", "r"),
                    (2, 0, "x", 0, "x", "q"), (2, 0, "x", 0, "x", "s")]  # "Q" (0x51) before "S" (0x53)
    by_group = {g: r for g, r in zip(groups, restored)}
    got = []
    for i, row in enumerate(rows):
        got += [(i,) + out[1:] for out in update(by_group[_key_group(row[1])], [row])]
    assert got == want


def test_state_of_another_query_or_a_foreign_side_is_refused():
    s = JoinStage(descriptor())
    update(s, [left("x", 1, b"\x01")])
    state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
    meta = {"accelerator.state_format": "3", "accelerator.key_group_start": "0", "accelerator.key_group_end": "127"}
    with pytest.raises(JoinStateError, match="changed"):
        call(JoinStage(descriptor(fingerprint="cd" * 32)), "restore", state,
             **meta, **{"accelerator.state_fingerprint": "ab" * 32})
    bad = state.set_column(2, "$side", pa.array([5], pa.int8()))
    with pytest.raises(JoinStateError, match="neither"):
        call(JoinStage(descriptor()), "restore", bad, **meta, **{"accelerator.state_fingerprint": "ab" * 32})


def test_a_random_stream_in_random_batches_with_a_restore_matches_the_row_at_a_time_rules():
    rng = random.Random(19)
    stream = []
    for _ in range(400):
        side, key = rng.choice((L, R)), rng.choice("abcd")
        value = rng.randrange(6)
        # Serialized rows of several lengths, equal bytes for equal rows.
        order = bytes([side, value * 37 % 256]) * (1 + value % 3)
        stream.append(left(key, value, order) if side == L else right(key, f"v{value}", order))
    want = _row_at_a_time(stream)
    s, got, at = JoinStage(descriptor()), [], 0
    while at < len(stream):
        size = rng.choice((1, 2, 7, 40))
        for out in update(s, stream[at:at + size]):
            got.append((at + out[0],) + out[1:])
        at += size
        if rng.random() < 0.2:
            state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
            s = JoinStage(descriptor())
            call(s, "restore", state, **{"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
                                         "accelerator.key_group_start": "0", "accelerator.key_group_end": "127"})
    assert len(want) > 1000
    assert got == want


def _row_at_a_time(stream: list[tuple]) -> list[tuple]:
    """Stock's rules, one row at a time: add the row to its side's map of row -> count, then join it
    with the other side's map of its key in RocksDB's order (length, then bytes)."""
    held: dict[tuple[int, str], dict[bytes, tuple]] = {}
    counts: dict[tuple[int, str, bytes], int] = {}
    out = []
    for i, (side, key, value, order) in enumerate(stream):
        held.setdefault((side, key), {})[order] = value
        counts[(side, key, order)] = counts.get((side, key, order), 0) + 1
        other = held.get((1 - side, key), {})
        for other_order in sorted(other, key=lambda b: (len(b), b)):
            for _ in range(counts[(1 - side, key, other_order)]):
                pair = ((key, value), (key, other[other_order])) if side == L else ((key, other[other_order]), (key, value))
                out.append((i, 0) + pair[0] + pair[1])
    return out
