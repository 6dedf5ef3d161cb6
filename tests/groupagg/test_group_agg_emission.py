"""What the group_agg stage answers per batch, against what Flink 2.2.1's `GroupAggFunction`
emits row by row (the expected rows are worked out by hand from its rules: +I on a key's first row,
-U/+U when the values differ under Java `==` / `equals`, nothing when they do not)."""

from __future__ import annotations

import math
from decimal import Decimal

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupagg.stage import GroupAggStage

BUDGET = str(1 << 30).encode()
I, UB, UA = 0, 1, 2


def stage(arg_type: str, functions: list[tuple[str, str]], update_before: bool = True) -> GroupAggStage:
    """A stage grouping by one STRING key over one argument column `x` of `arg_type`;
    `functions` are (function, accumulator type) pairs."""
    aggregates = [{"function": f, "arg": None if f == "count1" else "x", "acc": acc, "emit": True}
                  for f, acc in functions]
    return GroupAggStage({
        "name": "t", "keys": [{"name": "k", "type": "VARCHAR(2147483647)"}],
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}, {"name": "x", "type": arg_type}]},
        "aggregates": aggregates, "generate_update_before": update_before,
        "output": {"fields": [{"name": "k", "type": "VARCHAR(2147483647)"}]
                   + [{"name": f"v{i}", "type": acc} for i, (_, acc) in enumerate(functions)]},
        "state": {"format": 1, "fingerprint": "ab" * 32}})


def update(s: GroupAggStage, keys: list[str], values: list) -> list[tuple]:
    """(batch row, kind, values...) of every row the batch emits, in order."""
    batch = pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for k in keys], pa.binary()), pa.array([7] * len(keys), pa.int32()),
         pa.array(values, s.spec.input_schema.field("x").type)], schema=s.spec.input_schema)
    answer = s.process(batch.replace_schema_metadata({b"accelerator.call": b"update",
                                                      b"accelerator.state_budget": BUDGET}))
    return [tuple(row.values()) for row in answer.to_pylist()]


def test_a_value_that_does_not_change_emits_nothing_and_update_befores_follow_the_planner():
    s = stage("INT", [("max", "INT")])
    assert update(s, ["a", "a", "b", "a", "a"], [5, 3, 1, 5, 9]) == [
        (0, I, 5), (2, I, 1), (4, UB, 5), (4, UA, 9)]
    upsert = stage("INT", [("max", "INT")], update_before=False)
    assert update(upsert, ["a", "a", "a"], [5, 3, 9]) == [(0, I, 5), (2, UA, 9)]


def test_int_sum_wraps_as_java_int_and_count_counts_every_row():
    s = stage("INT", [("count1", "BIGINT NOT NULL"), ("sum", "INT")])
    assert update(s, ["a", "a"], [2147483647, 1]) == [
        (0, I, 1, 2147483647), (1, UB, 1, 2147483647), (1, UA, 2, -2147483648)]


def test_double_sums_add_in_row_order_and_an_unchanged_sum_emits_nothing():
    # 1e16 + 1.0 rounds back to 1e16 (unchanged: nothing), then - 1e16 gives 0.0; adding the three
    # in another order would give 1.0.
    s = stage("DOUBLE", [("sum", "DOUBLE")])
    assert update(s, ["a", "a", "a"], [1e16, 1.0, -1e16]) == [(0, I, 1e16), (2, UB, 1e16), (2, UA, 0.0)]


def test_nan_differs_from_itself_and_zero_equals_negative_zero():
    s = stage("DOUBLE", [("max", "DOUBLE")])
    out = update(s, ["a", "a", "b", "b"], [math.nan, 1.0, 0.0, -0.0])
    # MAX keeps NaN (1.0 > NaN is false), yet NaN == NaN is false in Java: stock emits the update.
    assert [(r, k) for r, k, _ in out] == [(0, I), (1, UB), (1, UA), (2, I)]
    assert all(math.isnan(v) for r, _, v in out if r in (0, 1))
    # -0.0 > 0.0 is false: the max stays 0.0 and nothing is emitted for row 3.


def test_nulls_are_skipped_and_two_nulls_are_equal():
    s = stage("BIGINT", [("count", "BIGINT NOT NULL"), ("min", "BIGINT")])
    assert update(s, ["a", "a", "a"], [None, None, 4]) == [
        (0, I, 0, None), (2, UB, 0, None), (2, UA, 1, 4)]


def test_decimal_sums_keep_their_scale_and_become_null_past_38_digits():
    s = stage("DECIMAL(38, 0)", [("sum", "DECIMAL(38, 0)")])
    big = Decimal(10 ** 37 * 9)
    assert update(s, ["a", "a", "a"], [big, big, Decimal(1)]) == [
        (0, I, big), (1, UB, big), (1, UA, None), (2, UB, None), (2, UA, Decimal(1))]


def test_the_state_carries_across_batches_as_within_one():
    keys, values = ["a", "b", "a", "c", "b", "a"], [3, None, -7, 2, 5, 3]
    whole = update(stage("INT", [("sum", "INT"), ("min", "INT")]), keys, values)
    split = stage("INT", [("sum", "INT"), ("min", "INT")])
    parts = update(split, keys[:3], values[:3]) + [(r + 3, *rest) for r, *rest in update(split, keys[3:], values[3:])]
    assert whole == [(0, I, 3, 3), (1, I, None, None), (2, UB, 3, 3), (2, UA, -4, -7), (3, I, 2, 2),
                     (4, UB, None, None), (4, UA, 5, 5), (5, UB, -4, -7), (5, UA, -1, -7)]
    assert parts == whole


@pytest.mark.parametrize("call", [b"fire", b"flush"])
def test_calls_of_the_window_aggregate_are_refused(call):
    s = stage("INT", [("sum", "INT")])
    batch = pa.RecordBatch.from_arrays([], schema=pa.schema([])).replace_schema_metadata({b"accelerator.call": call})
    with pytest.raises(ValueError, match="a group_agg stage answers"):
        s.process(batch)
