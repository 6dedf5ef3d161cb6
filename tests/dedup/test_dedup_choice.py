"""What the deduplicate stage answers per batch, against what Flink 2.2.1's deduplicate functions
emit row by row (expected rows worked out by hand from their rules, docstring of
`accelerator.dedup.choice`): equal rowtimes, NULL key fields, a key's first row in a later batch,
update-befores and inserts as the planner asks, and a checkpoint restored in between."""

from __future__ import annotations

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.dedup.stage import DedupStage
from accelerator.formats import timestamps
from accelerator.sidecar.stages import DescriptorError

BUDGET = str(1 << 30).encode()
I, UB, UA = 0, 1, 2


def stage(order: str, keep: str, update_before: bool = True, insert: bool = True) -> DedupStage:
    """Rows (k STRING, v DOUBLE, ts TIMESTAMP(3)) keyed by k."""
    row = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "v", "type": "DOUBLE"},
           {"name": "ts", "type": "TIMESTAMP(3)"}]
    return DedupStage({
        "name": "t", "keys": [row[0]], "order": order, "keep": keep,
        **({"rowtime": "ts"} if order == "rowtime" else {}),
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}] + row},
        "output": {"fields": row}, "generate_update_before": update_before, "generate_insert": insert,
        "state": {"format": 1, "fingerprint": "ab" * 32}})


def call(s: DedupStage, name: str, batch: pa.RecordBatch, **extra: str) -> pa.RecordBatch:
    metadata = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    metadata.update({k.encode(): v.encode() for k, v in extra.items()})
    return s.process(batch.replace_schema_metadata(metadata))


def update(s: DedupStage, rows: list[tuple]) -> list[tuple]:
    """(batch row, kind, k, v, ts millis) of every row the batch emits, in order; a NULL key's
    `$key` is the bytes b"null" (the operator sends Flink's key row bytes, which exist for it)."""
    keys = [pa.array([(b"null" if k is None else k.encode()) for k, _, _ in rows], pa.binary()),
            pa.array([7] * len(rows), pa.int32())]
    batch = pa.RecordBatch.from_arrays(
        keys + [pa.array([k for k, _, _ in rows], pa.string()), pa.array([v for _, v, _ in rows], pa.float64()),
                timestamps.from_epoch_millis(pa.array([t for _, _, t in rows], pa.int64()))],
        schema=s.spec.input_schema)
    answer = call(s, "update", batch)
    ts = timestamps.millis(answer.column("ts")).to_pylist()
    return [(r["$row"], r["$kind"], r["k"], r["v"], t) for r, t in zip(answer.to_pylist(), ts)]


def test_proctime_first_row_emits_each_keys_first_row_once_null_keys_included():
    s = stage("proctime", "first")
    assert update(s, [("a", 1.0, 5), (None, 2.0, 5), ("a", 3.0, 1), (None, 4.0, 1)]) == [
        (0, I, "a", 1.0, 5), (1, I, None, 2.0, 5)]
    assert update(s, [("b", 5.0, 0), ("a", 6.0, 0)]) == [(0, I, "b", 5.0, 0)]


def test_proctime_last_row_suppresses_a_row_equal_to_the_kept_one_only_until_it_was_updated():
    s = stage("proctime", "last")
    # a1 (+I), a1 again (equal to the +I row: nothing), a2 (-U a1 +U a2), a2 again: the kept row
    # was emitted as +U, so its kind differs and stock emits it again.
    assert update(s, [("a", 1.0, 0), ("a", 1.0, 0), ("a", 2.0, 0)]) == [
        (0, I, "a", 1.0, 0), (2, UB, "a", 1.0, 0), (2, UA, "a", 2.0, 0)]
    assert update(s, [("a", 2.0, 0)]) == [(0, UB, "a", 2.0, 0), (0, UA, "a", 2.0, 0)]


def test_proctime_last_row_compares_doubles_by_their_bits():
    s = stage("proctime", "last", update_before=False)
    nan = float("nan")
    out = update(s, [("a", 0.0, 0), ("a", -0.0, 0), ("b", nan, 0), ("b", nan, 0)])
    assert [(r, k, v) for r, k, _, v, _ in out][:2] == [(0, I, 0.0), (1, UA, -0.0)]
    assert [(r, k) for r, k, *_ in out[2:]] == [(2, I)], "the same NaN bits are equal"


def test_proctime_last_row_without_inserts_nor_update_befores_emits_every_row_as_update_after():
    s = stage("proctime", "last", update_before=False, insert=False)
    assert [(r, k) for r, k, *_ in update(s, [("a", 1.0, 0), ("a", 1.0, 0)])] == [(0, UA), (1, UA)]


def test_rowtime_last_row_a_later_row_with_an_equal_rowtime_wins_an_earlier_rowtime_loses():
    s = stage("rowtime", "last")
    assert update(s, [("a", 1.0, 10), ("a", 2.0, 10), ("a", 3.0, 9)]) == [
        (0, I, "a", 1.0, 10), (1, UB, "a", 1.0, 10), (1, UA, "a", 2.0, 10)]
    # The key's state carries into the next batch: an equal rowtime replaces again, even with equal fields.
    assert update(s, [("a", 2.0, 10), ("b", 4.0, 1)]) == [
        (0, UB, "a", 2.0, 10), (0, UA, "a", 2.0, 10), (1, I, "b", 4.0, 1)]


def test_rowtime_last_row_reads_a_null_rowtime_as_stock_reads_it_from_a_binary_row_0():
    s = stage("rowtime", "last")
    assert update(s, [("a", 1.0, None), ("a", 2.0, 0), ("a", 3.0, None)]) == [
        (0, I, "a", 1.0, None), (1, UB, "a", 1.0, None), (1, UA, "a", 2.0, 0),
        (2, UB, "a", 2.0, 0), (2, UA, "a", 3.0, None)]


def test_rowtime_last_row_without_inserts_nor_update_befores_emits_replacing_rows_as_update_after():
    s = stage("rowtime", "last", update_before=False, insert=False)
    assert [(r, k) for r, k, *_ in update(s, [("a", 1.0, 10), ("a", 2.0, 9), ("a", 3.0, 11)])] == [(0, UA), (2, UA)]


def test_an_event_time_first_row_is_refused():
    with pytest.raises(DescriptorError, match="event-time first row"):
        stage("rowtime", "first")


def test_snapshot_and_restore_carry_the_kept_row_and_its_kind():
    s = stage("proctime", "last")
    update(s, [("a", 1.0, 0), ("a", 2.0, 0), ("b", 3.0, 0)])
    snap = call(s, "snapshot", pa.RecordBatch.from_arrays([], schema=pa.schema([])))
    restored = stage("proctime", "last")
    call(restored, "restore", snap.replace_schema_metadata(None), **{
        "accelerator.key_group_start": "0", "accelerator.key_group_end": "127",
        "accelerator.state_format": "1", "accelerator.state_fingerprint": "ab" * 32})
    # b's kept row was emitted as +I (equal: nothing); a's as +U (equal fields, still emitted).
    assert update(restored, [("b", 3.0, 0), ("a", 2.0, 0)]) == [(1, UB, "a", 2.0, 0), (1, UA, "a", 2.0, 0)]
