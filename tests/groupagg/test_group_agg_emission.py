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


def stage(arg_type: str, functions: list[tuple], update_before: bool = True, keyed: bool = True) -> GroupAggStage:
    """A stage grouping by one STRING key (none when not `keyed`) over one argument column `x` of
    `arg_type`; `functions` are (function, accumulator type[, result type[, filtered]]) tuples: the
    result is the accumulator's unless given, and a filtered aggregate reads the BOOLEAN column `f`."""
    aggregates = [{"function": f[0], "arg": None if f[0] == "count1" else "x", "acc": f[1], "emit": True}
                  | ({"filter": "f"} if len(f) > 3 and f[3] else {}) for f in functions]
    keys = [{"name": "k", "type": "VARCHAR(2147483647)"}] if keyed else []
    return GroupAggStage({
        "name": "t", "keys": keys,
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}, {"name": "x", "type": arg_type},
                             {"name": "f", "type": "BOOLEAN"}]},
        "aggregates": aggregates, "generate_update_before": update_before,
        "output": {"fields": keys + [{"name": f"v{i}", "type": f[2] if len(f) > 2 else f[1]}
                                     for i, f in enumerate(functions)]},
        "state": {"format": 1, "fingerprint": "ab" * 32}})


def update(s: GroupAggStage, keys: list[str], values: list, filters: list | None = None) -> list[tuple]:
    """(batch row, kind, values...) of every row the batch emits, in order (`filters`: the column
    `f`, TRUE for every row unless given)."""
    batch = pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for k in keys], pa.binary()), pa.array([7] * len(keys), pa.int32()),
         pa.array(values, s.spec.input_schema.field("x").type),
         pa.array(filters if filters is not None else [True] * len(keys), pa.bool_())], schema=s.spec.input_schema)
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


def test_an_average_that_stays_equal_while_its_sum_and_count_move_emits_nothing():
    # AVG(INT) divides its BIGINT sum truncating toward zero: 7 / 2 and 9 / 3 stay 3, -7 / 2 stays
    # -3 (not -4); stock compares the values, not the accumulators, so those rows emit nothing.
    s = stage("INT", [("avg", "BIGINT", "INT")])
    assert update(s, ["a", "a", "a", "b", "b", "a"], [3, 4, 2, -3, -4, 100]) == [
        (0, I, 3), (3, I, -3), (5, UB, 3), (5, UA, 27)]


def test_a_decimal_average_rounds_half_up_to_scale_six():
    s = stage("DECIMAL(10, 2)", [("avg", "DECIMAL(38, 2)", "DECIMAL(38, 6)")])
    assert update(s, ["a", "a", "a"], [Decimal("1.00"), Decimal("0.00"), Decimal("1.00")]) == [
        (0, I, Decimal("1.000000")), (1, UB, Decimal("1.000000")), (1, UA, Decimal("0.500000")),
        (2, UB, Decimal("0.500000")), (2, UA, Decimal("0.666667"))]


def test_a_filter_that_is_false_or_null_skips_the_row_for_its_aggregate_only():
    s = stage("BIGINT", [("count1", "BIGINT NOT NULL"), ("count1", "BIGINT NOT NULL", "BIGINT NOT NULL", True),
                         ("sum", "BIGINT", "BIGINT", True)])
    assert update(s, ["a"] * 4, [1, 2, 4, 8], [True, None, False, True]) == [
        (0, I, 1, 1, 1), (1, UB, 1, 1, 1), (1, UA, 2, 1, 1), (2, UB, 2, 1, 1), (2, UA, 3, 1, 1),
        (3, UB, 3, 1, 1), (3, UA, 4, 2, 9)]


def test_an_aggregate_without_keys_is_one_group_emitting_only_its_values():
    s = stage("DOUBLE", [("count1", "BIGINT NOT NULL"), ("avg", "DOUBLE")], keyed=False)
    assert [f.name for f in s.answer_schema][2:] == ["v0", "v1"]
    # Flink's empty key: every row carries the same bytes.
    assert update(s, [""] * 3, [1.0, None, 2.0]) == [
        (0, I, 1, 1.0), (1, UB, 1, 1.0), (1, UA, 2, 1.0), (2, UB, 2, 1.0), (2, UA, 3, 1.5)]


def test_an_average_restored_from_its_sum_and_count_continues_as_uninterrupted():
    functions = [("avg", "DECIMAL(38, 2)", "DECIMAL(38, 6)"), ("count1", "BIGINT NOT NULL")]
    keys, values = ["a", "b", "a", "a", "b"], [Decimal(v) for v in ("1.50", "2.00", "-0.25", "3.00", "1.00")]
    whole = update(stage("DECIMAL(10, 2)", functions), keys, values)
    before = stage("DECIMAL(10, 2)", functions)
    head = update(before, keys[:3], values[:3])
    snapshot = before.process(pa.RecordBatch.from_arrays([], schema=pa.schema([])).replace_schema_metadata(
        {b"accelerator.call": b"snapshot"}))
    assert snapshot.schema.names == ["$key_group", "$key", "$acc0", "$acc0.1", "$acc1"]
    assert snapshot.column("$acc0").to_pylist() == [Decimal("1.25"), Decimal("2.00")]
    assert snapshot.column("$acc0.1").to_pylist() == [2, 1]
    after = stage("DECIMAL(10, 2)", functions)
    after.process(snapshot.replace_schema_metadata({
        **snapshot.schema.metadata, b"accelerator.call": b"restore", b"accelerator.key_group_start": b"0",
        b"accelerator.key_group_end": b"127", b"accelerator.state_budget": BUDGET}))
    tail = [(r + 3, *rest) for r, *rest in update(after, keys[3:], values[3:])]
    assert head + tail == whole
