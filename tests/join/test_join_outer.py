"""LEFT, RIGHT and FULL joins in the join stage against a row-at-a-time model of Flink 2.2.1's
`StreamingJoinOperator.processElement` for insert-only rows with `OuterJoinRecordStateViews` on an
outer side (written from Flink's code, docs/design/stateful-joins.md): the associated records are
the other side's rows of the key in state order, each as often as it arrived, each copy with
the number of associations read once from its map entry; per associated record, when the other
side is outer, its null-padded row is retracted (-D) if that number is 0 and the number becomes the
read one plus one, then the join is emitted (+I); an outer input without any is emitted
null-padded (+I); an outer input is stored with the number of its associated records. A NULL key
joins nothing. The order is RocksDB's (serialized length, then bytes). Flink 1.20's operator
(`AssociatedRecords.of` collects the associated records into a list first) emits every -D of them,
then every +I: the 1.20 jar's descriptor sets `retractions_before_joins`."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from accelerator.join.stage import JoinStage, JoinStateError
from accelerator.sidecar.stages import DescriptorError
from tests.join.test_join_matches import LEFT, RIGHT, TRANSPORT, call

L, R = 0, 1
INSERT, DELETE = 0, 3
OUTER = {"LEFT": (True, False), "RIGHT": (False, True), "FULL": (True, True)}
RESTORE = {"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
           "accelerator.key_group_start": "0", "accelerator.key_group_end": "127"}


def descriptor(join_type: str, retractions_before_joins: bool = False) -> dict:
    nullable = [{"name": f["name"], "type": f["type"].removesuffix(" NOT NULL")} for f in LEFT + RIGHT]
    # The planner makes the fields of an input that may be null-padded nullable.
    output = (nullable[:len(LEFT)] if OUTER[join_type][1] else LEFT) + RIGHT
    return {"name": "j", "join_type": join_type, "left_arity": len(LEFT),
            "keys": [{"left": LEFT[0], "right": RIGHT[0], "left_index": 0, "right_index": 0, "filter_nulls": True}],
            "input": {"fields": TRANSPORT + nullable}, "output": {"fields": output},
            "state": {"format": 3, "fingerprint": "ab" * 32, "backend": "rocksdb"},
            "retractions_before_joins": retractions_before_joins}


def update(s: JoinStage, rows: list[tuple]) -> list[tuple]:
    """`rows` are (side, key or None, value, order bytes); answers (batch row, kind, k, a, k0, b)."""
    def column(side: int, at: int, arrow_type: pa.DataType) -> pa.Array:
        return pa.array([r[at] if r[0] == side else None for r in rows], arrow_type)
    batch = pa.RecordBatch.from_arrays(
        [pa.array([_key_bytes(r[1]) for r in rows], pa.binary()),
         pa.array([sum(_key_bytes(r[1])) % 128 for r in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int8()), pa.array([r[3] for r in rows], pa.binary()),
         column(L, 1, pa.string()), column(L, 2, pa.int64()), column(R, 1, pa.string()), column(R, 2, pa.string())],
        schema=s.spec.input_schema)
    return [tuple(r.values()) for r in call(s, "update", batch).to_pylist()]


def _key_bytes(key: str | None) -> bytes:
    return b"\x01" if key is None else b"\x00" + key.encode()


def stock(stream: list[tuple], outer: tuple[bool, bool], line_120: bool = False) -> list[tuple]:
    """processElement for each row in turn; per side and key, order -> [value, count, associations].
    `line_120`: Flink 1.20's, which loops over the associated records twice, the -Ds, then the +Is."""
    held: dict[tuple[int, str | None], dict[bytes, list]] = {}
    out = []

    def joined(i, kind, side, mine, theirs):
        pair = (mine, theirs) if side == L else (theirs, mine)
        out.append((i, kind) + pair[0] + pair[1])

    for i, (side, key, value, order) in enumerate(stream):
        other_side = 1 - side
        theirs = held.get((other_side, key), {})
        associated = []
        if key is not None:  # JoinConditionWithNullFilters rejects every pair with a NULL key
            for o in sorted(theirs, key=lambda b: (len(b), b)):
                associated += [o] * theirs[o][1]
        # Each map entry's number is read once, when the iterator reaches it, for all its copies.
        reads = {o: theirs[o][2] for o in associated}
        if line_120:
            if outer[other_side]:
                for o in associated:
                    if reads[o] == 0:
                        joined(i, DELETE, other_side, (key, theirs[o][0]), (None, None))
                    theirs[o][2] = reads[o] + 1
            for o in associated:
                joined(i, INSERT, side, (key, value), (key, theirs[o][0]))
        else:
            for o in associated:
                if outer[other_side]:
                    if reads[o] == 0:
                        joined(i, DELETE, other_side, (key, theirs[o][0]), (None, None))
                    theirs[o][2] = reads[o] + 1
                joined(i, INSERT, side, (key, value), (key, theirs[o][0]))
        if not associated and outer[side]:
            joined(i, INSERT, side, (key, value), (None, None))
        entry = held.setdefault((side, key), {}).setdefault(order, [value, 0, 0])
        entry[1] += 1
        if outer[side]:
            entry[2] = len(associated)
    return out


def _stream(rng: random.Random, rows: int, keys: str) -> list[tuple]:
    stream = []
    for _ in range(rows):
        side = rng.choice((L, R))
        key = None if rng.random() < 0.05 else rng.choice(keys)
        value = rng.randrange(6)
        order = bytes([side, value * 37 % 256]) * (1 + value % 3)
        stream.append((side, key, value, order) if side == L else (side, key, f"v{value}", order))
    return stream


def _sent(stream: list[tuple], outer: tuple[bool, bool]) -> list[tuple]:
    """What the operator sends: a row with a NULL key only from an outer side (it never joins)."""
    return [r for r in stream if r[1] is not None or outer[r[0]]]


@pytest.mark.parametrize("line_120", [False, True], ids=["2.x", "1.20"])
@pytest.mark.parametrize("join_type", ["LEFT", "RIGHT", "FULL"])
@pytest.mark.parametrize("batch", [1, 7, 10_000])
def test_a_random_stream_with_restores_matches_stocks_rules_row_by_row(join_type, batch, line_120):
    rng = random.Random(f"{join_type}-{batch}")  # a str seed is the same in every process; hash() of one is not
    outer = OUTER[join_type]
    # Few keys and one hot one: rows repeat, outer rows wait for a first match, matched ones are matched again.
    stream = _sent(_stream(rng, 1000, "a" * 30 + "bcdefghijklmnopqrstuvwxyzBCDEFGHIJ"), outer)
    want = stock(stream, outer, line_120)
    # The lines' orders differ on this stream (a row retracting two or more padded rows).
    assert want != stock(stream, outer, not line_120)
    s, got, at = JoinStage(descriptor(join_type, line_120)), [], 0
    while at < len(stream):
        for out in update(s, stream[at:at + batch]):
            got.append((at + out[0],) + out[1:])
        at += batch
        if rng.random() < 0.3:
            state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
            s = JoinStage(descriptor(join_type, line_120))
            call(s, "restore", state, **RESTORE)
    # The stream reaches what the rules are about: padded rows, and their retraction at a first match.
    assert [w[1] for w in want].count(DELETE) > 20 and sum(1 for w in want if None in w[2:]) > 60
    assert got == want


def test_a_left_row_is_padded_then_retracted_once_per_arrival_at_its_first_match():
    s = JoinStage(descriptor("LEFT"))
    assert update(s, [(L, "x", 1, b"\x01"), (L, "x", 1, b"\x01"), (L, None, 2, b"\x02")]) == [
        (0, INSERT, "x", 1, None, None), (1, INSERT, "x", 1, None, None), (2, INSERT, None, 2, None, None)]
    assert update(s, [(R, "x", "p", b"\x05"), (R, "x", "q", b"\x06")]) == [
        (0, DELETE, "x", 1, None, None), (0, INSERT, "x", 1, "x", "p"),
        (0, DELETE, "x", 1, None, None), (0, INSERT, "x", 1, "x", "p"),
        (1, INSERT, "x", 1, "x", "q"), (1, INSERT, "x", 1, "x", "q")]


def test_on_the_1_20_line_a_right_row_retracts_every_padded_left_row_before_its_joins():
    s = JoinStage(descriptor("LEFT", retractions_before_joins=True))
    update(s, [(L, "x", 1, b"\x01"), (L, "x", 2, b"\x02")])
    assert update(s, [(R, "x", "p", b"\x05"), (R, "x", "q", b"\x06")]) == [
        (0, DELETE, "x", 1, None, None), (0, DELETE, "x", 2, None, None),
        (0, INSERT, "x", 1, "x", "p"), (0, INSERT, "x", 2, "x", "p"),
        (1, INSERT, "x", 1, "x", "q"), (1, INSERT, "x", 2, "x", "q")]


def test_a_retractions_before_joins_flag_that_is_not_a_boolean_is_refused():
    with pytest.raises(DescriptorError, match="retractions_before_joins is 'yes', not true or false"):
        JoinStage(descriptor("LEFT", "yes"))


def test_a_join_type_the_sidecar_does_not_run_is_refused_naming_the_ones_it_does():
    with pytest.raises(DescriptorError, match="'CROSS'.*'SEMI', 'ANTI'"):
        JoinStage(dict(descriptor("LEFT"), join_type="CROSS"))


def test_state_of_the_format_before_the_numbers_of_associations_is_refused_naming_both_formats():
    s = JoinStage(descriptor("FULL"))
    update(s, [(L, "x", 1, b"\x01")])
    state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
    with pytest.raises(JoinStateError,
                       match="by an older flink-accelerator in state format 2; this sidecar restores formats 3 and 4"):
        call(JoinStage(descriptor("FULL")), "restore", state, **dict(RESTORE, **{"accelerator.state_format": "2"}))
