"""What the top_n stage answers per batch, against what Flink 2.2.1's AppendOnlyTopNFunction emits
row by row (expected rows worked out by hand from its rules, docstring of `accelerator.rank.topn`):
ties on the sort key in arrival order, NULL sort values by the field's NULL order, two sort fields,
with and without the row number and update-befores, a key's rows spread over batches, and a
checkpoint restored in between."""

from __future__ import annotations

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.rank.stage import TopNStage, TopNStateError
from accelerator.sidecar.stages import DescriptorError

BUDGET = str(1 << 30).encode()
I, UB, UA, D = 0, 1, 2, 3
ROW = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "p", "type": "BIGINT"},
       {"name": "s", "type": "VARCHAR(2147483647)"}]


def stage(n: int, sort: list[tuple[str, bool, bool]], rank_number: bool = True, update_before: bool = True,
          fingerprint: str = "ab" * 32) -> TopNStage:
    """Rows (k STRING, p BIGINT, s STRING) keyed by k; `sort` is (field, ascending, nulls_last)."""
    output = ROW + ([{"name": "rn", "type": "BIGINT NOT NULL"}] if rank_number else [])
    return TopNStage({
        "name": "t", "keys": [ROW[0]],
        "sort": [{"name": f, "type": "BIGINT" if f == "p" else "VARCHAR(2147483647)", "ascending": asc,
                  "nulls_last": last} for f, asc, last in sort],
        "rank_end": n, "output_rank_number": rank_number, "generate_update_before": update_before,
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}] + ROW},
        "output": {"fields": output}, "state": {"format": 1, "fingerprint": fingerprint}})


def call(s: TopNStage, name: str, batch: pa.RecordBatch, **extra: str) -> pa.RecordBatch:
    metadata = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    metadata.update({k.encode(): v.encode() for k, v in extra.items()})
    return s.process(batch.replace_schema_metadata(metadata))


def update(s: TopNStage, rows: list[tuple]) -> list[tuple]:
    """(batch row, kind, k, p, s[, rn]) of every row the batch emits, in order."""
    batch = pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for k, _, _ in rows], pa.binary()), pa.array([7] * len(rows), pa.int32()),
         pa.array([k for k, _, _ in rows], pa.string()), pa.array([p for _, p, _ in rows], pa.int64()),
         pa.array([v for _, _, v in rows], pa.string())], schema=s.spec.input_schema)
    return [tuple(r.values()) for r in call(s, "update", batch).to_pylist()]


def test_with_the_row_number_each_place_from_the_new_rows_changes_hands_and_a_free_place_is_inserted():
    s = stage(3, [("p", False, True)])
    assert update(s, [("a", 10, "x"), ("a", 30, "y")]) == [
        (0, I, "a", 10, "x", 1),
        (1, UB, "a", 10, "x", 1), (1, UA, "a", 30, "y", 1), (1, I, "a", 10, "x", 2)]
    # 20 goes to place 2: place 2 changes hands, 10 is inserted at 3; then 5 is past the top.
    assert update(s, [("a", 20, "z"), ("a", 5, "w")]) == [
        (0, UB, "a", 10, "x", 2), (0, UA, "a", 20, "z", 2), (0, I, "a", 10, "x", 3)]
    # A full top: 25 takes place 2, 20 moves to 3 and 10 leaves without a message of its own.
    assert update(s, [("a", 25, "v")]) == [
        (0, UB, "a", 20, "z", 2), (0, UA, "a", 25, "v", 2), (0, UB, "a", 10, "x", 3), (0, UA, "a", 20, "z", 3)]


def test_a_tie_goes_after_the_rows_of_its_sort_key_in_arrival_order():
    s = stage(2, [("p", False, True)], rank_number=False)
    assert update(s, [("a", 10, "first"), ("a", 10, "second"), ("a", 10, "third")]) == [
        (0, I, "a", 10, "first"), (1, I, "a", 10, "second")]
    assert update(s, [("a", 11, "top")]) == [(0, D, "a", 10, "second"), (0, I, "a", 11, "top")]


def test_without_update_befores_only_the_update_afters_and_inserts_are_emitted():
    s = stage(2, [("p", True, True)], update_before=False)
    assert update(s, [("a", 5, "x"), ("b", 1, "y"), ("a", 3, "z")]) == [
        (0, I, "a", 5, "x", 1), (1, I, "b", 1, "y", 1), (2, UA, "a", 3, "z", 1), (2, I, "a", 5, "x", 2)]


def test_null_sort_values_sort_by_the_fields_null_order_whatever_its_direction():
    last = stage(2, [("p", False, True)], rank_number=False)
    assert update(last, [("a", None, "n"), ("a", 1, "x"), ("a", 2, "y")]) == [
        (0, I, "a", None, "n"), (1, I, "a", 1, "x"), (2, D, "a", None, "n"), (2, I, "a", 2, "y")]
    first = stage(2, [("p", False, False)], rank_number=False)
    assert update(first, [("a", 1, "x"), ("a", 2, "y"), ("a", None, "n")]) == [
        (0, I, "a", 1, "x"), (1, I, "a", 2, "y"), (2, D, "a", 1, "x"), (2, I, "a", None, "n")]


def test_two_sort_fields_order_by_the_second_where_the_first_ties():
    s = stage(2, [("p", False, True), ("s", True, True)], rank_number=False)
    assert update(s, [("a", 1, "m"), ("a", 1, "z"), ("a", 1, "b"), ("a", 1, "\u00fc")]) == [
        (0, I, "a", 1, "m"), (1, I, "a", 1, "z"), (2, D, "a", 1, "z"), (2, I, "a", 1, "b")]


def test_a_snapshot_restored_into_a_new_stage_carries_each_keys_top_rows_in_order():
    s = stage(2, [("p", False, True)])
    update(s, [("a", 1, "x"), ("a", 2, "y"), ("b", 7, "z")])
    state = call(s, "snapshot", pa.RecordBatch.from_arrays([], schema=pa.schema([])))
    assert state.column("$place").to_pylist() == [0, 1, 0]
    restored = stage(2, [("p", False, True)])
    call(restored, "restore", state, **{"accelerator.key_group_start": "0", "accelerator.key_group_end": "127",
                                        "accelerator.state_format": "1", "accelerator.state_fingerprint": "ab" * 32})
    assert update(restored, [("a", 3, "w")]) == [
        (0, UB, "a", 2, "y", 1), (0, UA, "a", 3, "w", 1), (0, UB, "a", 1, "x", 2), (0, UA, "a", 2, "y", 2)]
    other = stage(2, [("p", False, True)], fingerprint="cd" * 32)
    with pytest.raises(TopNStateError, match="the query's Top-N changed"):
        call(other, "restore", state, **{"accelerator.key_group_start": "0", "accelerator.key_group_end": "127",
                                         "accelerator.state_format": "1",
                                         "accelerator.state_fingerprint": "ab" * 32})


def test_a_double_sort_field_is_refused():
    with pytest.raises(DescriptorError, match="sort field 'v'"):
        TopNStage({"name": "t", "keys": [], "sort": [{"name": "v", "ascending": True, "nulls_last": True}],
                   "rank_end": 3, "output_rank_number": False, "generate_update_before": True,
                   "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                                        {"name": "$key_group", "type": "INT NOT NULL"},
                                        {"name": "v", "type": "DOUBLE"}]},
                   "output": {"fields": [{"name": "v", "type": "DOUBLE"}]}})
