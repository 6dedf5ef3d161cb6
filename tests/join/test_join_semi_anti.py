"""SEMI and ANTI joins in the join stage against a row-at-a-time model of Flink 2.2.1's
`StreamingSemiAntiJoinOperator` for insert-only rows (written from Flink's code,
docs/design/stateful-joins.md): the left input keeps each row with its count and number of
associations (`OuterJoinRecordStateViews`), the right input plain rows. A left row is emitted (+I)
by SEMI when some right row of its key is associated with it (the condition TRUE), by ANTI when none
is, and stored with their number; a right row is stored, then walks the left rows of its key in
state order, each copy with the number read once from its map entry: a left row read with 0 is
emitted (SEMI +I, ANTI -D), once per copy, and its number becomes the read one plus one. A NULL key
joins nothing. The order is RocksDB's (serialized length, then bytes); the condition is `a > b`."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from accelerator.join.stage import JoinStage
from accelerator.sidecar.stages import DescriptorError
from tests.join.test_join_condition import A_GREATER_THAN_B, LEFT, RIGHT, TRANSPORT
from tests.join.test_join_matches import call

L, R = 0, 1
INSERT, DELETE = 0, 3
RESTORE = {"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
           "accelerator.key_group_start": "0", "accelerator.key_group_end": "127"}


def descriptor(join_type: str, condition: dict | None = None) -> dict:
    nullable = [{"name": f["name"], "type": f["type"].removesuffix(" NOT NULL")} for f in LEFT + RIGHT]
    out = {"name": "j", "join_type": join_type, "left_arity": len(LEFT),
           "keys": [{"left": LEFT[0], "right": RIGHT[0], "left_index": 0, "right_index": 0, "filter_nulls": True}],
           "input": {"fields": TRANSPORT + nullable}, "joined": {"fields": LEFT + RIGHT}, "output": {"fields": LEFT},
           "state": {"format": 3, "fingerprint": "ab" * 32, "backend": "rocksdb"}}
    if condition is not None:
        out["condition"] = {"column": "$match", "plan": condition}
    return out


def update(s: JoinStage, rows: list[tuple]) -> list[tuple]:
    """`rows` are (side, key or None, value, order bytes); answers (batch row, kind, k, a)."""
    def column(side: int, at: int) -> pa.Array:
        return pa.array([r[at] if r[0] == side else None for r in rows], pa.string() if at == 1 else pa.int64())
    batch = pa.RecordBatch.from_arrays(
        [pa.array([_key_bytes(r[1]) for r in rows], pa.binary()),
         pa.array([sum(_key_bytes(r[1])) % 128 for r in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int8()), pa.array([r[3] for r in rows], pa.binary()),
         column(L, 1), column(L, 2), column(R, 1), column(R, 2)],
        schema=s.spec.input_schema)
    return [tuple(r.values()) for r in call(s, "update", batch).to_pylist()]


def _key_bytes(key: str | None) -> bytes:
    return b"\x01" if key is None else b"\x00" + key.encode()


def stock(stream: list[tuple], anti: bool, condition) -> list[tuple]:
    """processElement1 / processElement2 for each row in turn; per side and key, order -> [value, count, associations]."""
    held: dict[tuple[int, str | None], dict[bytes, list]] = {}
    out = []
    for i, (side, key, value, order) in enumerate(stream):
        theirs = held.get((1 - side, key), {})
        associated = []
        if key is not None:  # JoinConditionWithNullFilters rejects every pair with a NULL key
            for o in sorted(theirs, key=lambda b: (len(b), b)):
                if (condition(value, theirs[o][0]) if side == L else condition(theirs[o][0], value)):
                    associated += [o] * theirs[o][1]
        if side == L:
            if bool(associated) != anti:
                out.append((i, INSERT, key, value))
            entry = held.setdefault((L, key), {}).setdefault(order, [value, 0, 0])
            entry[1] += 1
            entry[2] = len(associated)  # addRecord overwrites the number of a row it holds
        else:
            held.setdefault((R, key), {}).setdefault(order, [value, 0, 0])[1] += 1
            # Each map entry's number is read once, when the iterator reaches it, for all its copies.
            reads = {o: theirs[o][2] for o in associated}
            for o in associated:
                if reads[o] == 0:
                    out.append((i, DELETE if anti else INSERT, key, theirs[o][0]))
                theirs[o][2] = reads[o] + 1
    return out


def _any(a, b) -> bool:
    return True


def _greater(a, b) -> bool:
    return a is not None and b is not None and a > b


def _stream(rng: random.Random, rows: int, keys: str) -> list[tuple]:
    stream = []
    for _ in range(rows):
        side = rng.choice((L, R))
        key = None if rng.random() < 0.05 else rng.choice(keys)
        value = None if rng.random() < 0.05 else rng.randrange(6)
        code = 7 if value is None else value
        stream.append((side, key, value, bytes([side, code * 37 % 256]) * (1 + code % 3)))
    return stream


def _sent(stream: list[tuple], anti: bool) -> list[tuple]:
    """What the operator sends: a row with a NULL key only from an ANTI join's left input (it never joins)."""
    return [r for r in stream if r[1] is not None or (anti and r[0] == L)]


@pytest.mark.parametrize("join_type", ["SEMI", "ANTI"])
@pytest.mark.parametrize("batch", [1, 7, 10_000])
@pytest.mark.parametrize("with_condition", [False, True])
def test_a_random_stream_with_restores_matches_stocks_rules_row_by_row(join_type, batch, with_condition):
    rng = random.Random(f"{join_type}-{batch}-{with_condition}")  # a str seed is the same in every process
    anti = join_type == "ANTI"
    make = (lambda: JoinStage(descriptor(join_type, A_GREATER_THAN_B))) if with_condition \
        else (lambda: JoinStage(descriptor(join_type)))
    # Few keys and one hot one: left rows repeat, wait for a first match, are matched again.
    stream = _sent(_stream(rng, 1000, "a" * 30 + "bcdefghijklmnopqrstuvwxyzBCDEFGHIJ"), anti)
    want = stock(stream, anti, _greater if with_condition else _any)
    s, got, at = make(), [], 0
    while at < len(stream):
        for out in update(s, stream[at:at + batch]):
            got.append((at + out[0],) + out[1:])
        at += batch
        if rng.random() < 0.3:
            state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
            s = make()
            call(s, "restore", state, **RESTORE)
    # The stream reaches what the rules are about: left rows emitted at their arrival and at a first
    # match from the right, several copies of one left row at once; for ANTI, retractions.
    at_first_match = [w for w in want if stream[w[0]][0] == R]
    assert len(at_first_match) > 20 and len([w for w in want if stream[w[0]][0] == L]) > 20
    assert any(a == b for a, b in zip(at_first_match, at_first_match[1:]))
    assert all(w[1] == (DELETE if anti else INSERT) for w in at_first_match)
    assert got == want


def test_a_left_row_held_twice_comes_out_twice_at_its_first_match_and_never_again():
    for join_type, first_match in (("SEMI", INSERT), ("ANTI", DELETE)):
        s = JoinStage(descriptor(join_type))
        arrival = [] if join_type == "SEMI" else [(0, INSERT, "x", 1), (1, INSERT, "x", 1), (2, INSERT, None, 2)]
        assert update(s, [(L, "x", 1, b"\x01"), (L, "x", 1, b"\x01"), (L, None, 2, b"\x02")]) == arrival
        assert update(s, [(R, "x", 5, b"\x05"), (R, "x", 6, b"\x06"), (L, "x", 1, b"\x01")]) == \
            [(0, first_match, "x", 1), (0, first_match, "x", 1)] + ([(2, INSERT, "x", 1)] if join_type == "SEMI" else [])


def test_the_condition_decides_the_first_match():
    s = JoinStage(descriptor("ANTI", A_GREATER_THAN_B))
    assert update(s, [(L, "x", 3, b"\x01"), (L, "x", 1, b"\x02")]) == [(0, INSERT, "x", 3), (1, INSERT, "x", 1)]
    # 2 < 3 retracts the 3; 1 is not greater than 2 and stays; then 0 matches it.
    assert update(s, [(R, "x", 2, b"\x05")]) == [(0, DELETE, "x", 3)]
    assert update(s, [(R, "x", 0, b"\x06"), (R, "x", 0, b"\x06")]) == [(0, DELETE, "x", 1)]


def test_a_semi_join_descriptor_without_the_joined_row_or_with_more_output_than_the_left_row_is_refused():
    with pytest.raises(DescriptorError, match="'joined'"):
        JoinStage({k: v for k, v in descriptor("SEMI").items() if k != "joined"})
    with pytest.raises(DescriptorError, match="output fields must be the left input's"):
        JoinStage(dict(descriptor("ANTI"), output={"fields": LEFT + RIGHT}))
