"""The join's state formats (docs/design/stateful-joins.md §4): a descriptor of `state.format` 4 (the
jar's since the keys and fields left the checkpoints) gets snapshots of format 3's rows without their
keys and fields, which the operator makes again from `$order` at a restore (`JoinStateRows` in the
jar; the Java harness tests restore them against stock's operator); one of format 3 gets format 3's
rows. A restore call carries format 3's rows, labelled 3 or 4, and any other format is refused
naming it."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.join.stage import JoinStage, JoinStateError
from tests.join.test_join_timestamp_state import DESCRIPTOR, call

RESTORE = {"accelerator.state_fingerprint": "ab" * 32, "accelerator.key_group_start": "0",
           "accelerator.key_group_end": "127"}


def _descriptor(state_format: int) -> dict:
    return {**DESCRIPTOR, "state": {**DESCRIPTOR["state"], "format": state_format}}


def _stream(s: JoinStage) -> pa.RecordBatch:
    """Left and right rows over three keys, a row repeated, the right side's TIMESTAMP NULL once."""
    rows = [(0, b"1", 1, 5_000, b"L1"), (1, b"1", 1, 7_000, b"R1"), (0, b"2", 2, None, b"L2-longer"),
            (0, b"1", 1, 5_000, b"L1"), (1, b"2", 2, None, b"R2"), (1, b"3", 3, 9_000, b"R3")]
    time = s.spec.input_schema.field("t").type

    def side(i: int, value):
        return [value(r) if r[0] == i else None for r in rows]

    def stamp(r):
        return None if r[3] is None else {"millis": r[3], "nanos": 0}

    return pa.RecordBatch.from_arrays(
        [pa.array([r[1] for r in rows]), pa.array([r[1][0] % 7 for r in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int8()), pa.array([r[4] for r in rows]),
         pa.array(side(0, lambda r: r[2]), pa.int64()), pa.array(side(0, stamp), time),
         pa.array(side(1, lambda r: r[2]), pa.int64()), pa.array(side(1, stamp), time)],
        schema=s.spec.input_schema)


def _snapshot(state_format: int) -> tuple[JoinStage, pa.RecordBatch]:
    s = JoinStage(_descriptor(state_format))
    call(s, "update", _stream(s))
    return s, call(s, "snapshot", pa.RecordBatch.from_pylist([]))


def test_format_4_snapshots_format_3s_rows_without_their_keys_and_fields():
    _, with_fields = _snapshot(3)
    _, without = _snapshot(4)
    assert with_fields.schema.metadata[b"accelerator.state_format"] == b"3"
    assert without.schema.metadata[b"accelerator.state_format"] == b"4"
    assert without.schema.names == ["$key_group", "$side", "$count", "$associations", "$order"]
    assert with_fields.schema.names == ["$key_group", "$key", "$side", "$count", "$associations", "$order",
                                        "k", "t", "k0", "t0"]
    assert with_fields.num_rows == without.num_rows == 5
    for name in without.schema.names:
        assert with_fields.column(name).equals(without.column(name)), name
    # The same rows restore (as the operator hands them back, fields put back) whether labelled 3 or 4.
    answers = []
    for label in ("3", "4"):
        restored = JoinStage(_descriptor(4))
        call(restored, "restore", with_fields, **RESTORE, **{"accelerator.state_format": label})
        assert call(restored, "snapshot", pa.RecordBatch.from_pylist([])).equals(without)
        answers.append(call(restored, "update", _stream(restored)).to_pylist())
    assert answers[0] == answers[1] and len(answers[0]) > 5


@pytest.mark.parametrize("written, by", [(2, "an older"), (5, "a newer")])
def test_other_formats_are_refused_naming_the_formats(written, by):
    _, state = _snapshot(3)
    with pytest.raises(JoinStateError, match=f"by {by} flink-accelerator in state format {written}; this sidecar"
                                             f" restores formats 3 and 4"):
        call(JoinStage(_descriptor(4)), "restore", state, **RESTORE, **{"accelerator.state_format": str(written)})


def _many(s: JoinStage, n: int, seed: int) -> pa.RecordBatch:
    """`n` rows of 40 keys, both sides, `$order` bytes of 8 to 56 bytes (whole words, as binary rows)."""
    rng = np.random.default_rng(seed)
    keys, sides = rng.integers(0, 40, n), rng.integers(0, 2, n)
    orders = [bytes(rng.integers(0, 256, 8 * int(rng.integers(1, 8)), dtype=np.uint8)) for _ in range(n)]
    time = s.spec.input_schema.field("t").type
    stamp = [{"millis": int(v), "nanos": 0} for v in rng.integers(0, 10_000, n)]
    return pa.RecordBatch.from_arrays(
        [pa.array([b"k%d" % k for k in keys]), pa.array(keys % 7, pa.int32()), pa.array(sides, pa.int8()),
         pa.array(orders), pa.array(keys, pa.int64(), mask=sides != 0), pa.array(stamp, time, mask=sides != 0),
         pa.array(keys, pa.int64(), mask=sides != 1), pa.array(stamp, time, mask=sides != 1)],
        schema=s.spec.input_schema)


@pytest.mark.parametrize("backend", ["rocksdb", "hashmap"])
def test_format_4_pieces_are_gathered_when_asked_and_make_the_whole_snapshot(backend):
    s = JoinStage({**_descriptor(4), "state": {**_descriptor(4)["state"], "backend": backend}})
    for seed in range(3):
        call(s, "update", _many(s, 400, seed))
    whole = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
    assert whole.num_rows > 300
    pieces, piece, count = [], 0, 1
    while piece < count:
        answer = call(s, "snapshot", pa.RecordBatch.from_pylist([]), **{"accelerator.snapshot_piece": str(piece),
                                                                         "accelerator.snapshot_piece_bytes": "900"})
        count = int(answer.schema.metadata[b"accelerator.snapshot_pieces"])
        assert answer.num_rows == 1 or answer.nbytes <= 900
        key_groups = answer.column("$key_group").to_pylist()
        goes_on = answer.schema.metadata[b"accelerator.snapshot_continues"] == b"1"
        pieces.append((answer, key_groups, goes_on))
        piece += 1
    assert count > 10
    assert pa.Table.from_batches([p for p, _, _ in pieces]).replace_schema_metadata(None).equals(
        pa.Table.from_batches([whole]).replace_schema_metadata(None))
    for (_, groups, goes_on), (_, after, _) in zip(pieces, pieces[1:]):
        assert goes_on == (groups[-1] == after[0])
