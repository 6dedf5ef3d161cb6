"""The group_agg stage over an updating input, against what Flink 2.2.1's `GroupAggFunction` emits
row by row (expected rows worked out by hand from its rules: +I/+U accumulate, -U/-D retract; a
retraction for a key without state is ignored; the row that brings the record counter to 0 emits
-D of the previous value and clears the key, whose next row is an +I again) and the retract
expressions of `SumWithRetractAggFunction`, `AvgAggFunction` and `CountAggFunction`."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupagg.stage import GroupAggStage
from accelerator.sidecar.stages import DescriptorError

BUDGET = str(1 << 30).encode()
I, UB, UA, D = 0, 1, 2, 3
COUNTER = ("count1", "BIGINT NOT NULL", None, False)


def stage(arg_type: str, functions: list[tuple], update_before: bool = True) -> GroupAggStage:
    """A stage over an updating input grouping by one STRING key over the argument column `x`;
    `functions` are (function, accumulator type, result type or None, emitted); the record counter
    is the last COUNT(*) without FILTER, the planner's hidden one unless emitted."""
    aggregates = [{"function": f[0], "arg": None if f[0] == "count1" else "x", "acc": f[1], "emit": f[3]}
                  for f in functions]
    counter = max(i for i, f in enumerate(functions) if f[0] == "count1")
    keys = [{"name": "k", "type": "VARCHAR(2147483647)"}]
    return GroupAggStage({
        "name": "t", "keys": keys,
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"},
                             {"name": "$kind", "type": "TINYINT NOT NULL"}, {"name": "x", "type": arg_type}]},
        "aggregates": aggregates, "record_counter": counter, "generate_update_before": update_before,
        "output": {"fields": keys + [{"name": f"v{i}", "type": f[2] or f[1]}
                                     for i, f in enumerate(functions) if f[3]]},
        "state": {"format": 1, "fingerprint": "ab" * 32}})


def update(s: GroupAggStage, rows: list[tuple]) -> list[tuple]:
    """(batch row, kind, values...) of every row the batch of (kind, key, x) `rows` emits."""
    batch = pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for _, k, _ in rows], pa.binary()), pa.array([7] * len(rows), pa.int32()),
         pa.array([kind for kind, _, _ in rows], pa.int8()),
         pa.array([x for _, _, x in rows], s.spec.input_schema.field("x").type)], schema=s.spec.input_schema)
    answer = s.process(batch.replace_schema_metadata({b"accelerator.call": b"update",
                                                      b"accelerator.state_budget": BUDGET}))
    return [tuple(row.values()) for row in answer.to_pylist()]


def sum_stage(arg_type: str, sum_type: str, update_before: bool = True) -> GroupAggStage:
    return stage(arg_type, [("sum_retract", sum_type, None, True), COUNTER], update_before)


def test_retracting_the_last_row_deletes_the_previous_value_and_the_key_starts_again_with_an_insert():
    s = sum_stage("INT", "INT")
    assert update(s, [(I, "a", 5), (UB, "a", 5), (UA, "a", 7), (D, "a", 7), (I, "a", 2)]) == [
        (0, I, 5), (1, D, 5), (2, I, 7), (3, D, 7), (4, I, 2)]
    assert s.state.entries == 1


def test_a_retraction_for_a_key_without_state_is_ignored_and_makes_no_state():
    s = sum_stage("INT", "INT")
    assert update(s, [(D, "a", 5), (UB, "b", 1), (I, "b", 3)]) == [(2, I, 3)]
    assert s.state.entries == 1
    assert update(s, [(D, "b", 3), (D, "b", 3)]) == [(0, D, 3)]
    assert s.state.entries == 0


def test_updates_without_update_befores_and_an_unchanged_sum_emits_nothing():
    s = sum_stage("BIGINT", "BIGINT", update_before=False)
    # A row with a NULL x, and its update to NULL, move the record counter but not the sum: nothing.
    assert update(s, [(I, "a", 5), (I, "a", 4), (I, "a", None), (UB, "a", None), (UA, "a", None), (UB, "a", 4),
                      (UA, "a", 1)]) == [(0, I, 5), (1, UA, 9), (5, UA, 5), (6, UA, 6)]


def test_a_sum_whose_non_null_operands_are_all_retracted_is_null_while_the_key_keeps_rows():
    s = sum_stage("INT", "INT")
    assert update(s, [(I, "a", None), (I, "a", 3), (D, "a", 3)]) == [
        (0, I, None), (1, UB, None), (1, UA, 3), (2, UB, 3), (2, UA, None)]


def test_int_sums_wrap_both_ways():
    s = sum_stage("INT", "INT")
    assert update(s, [(I, "a", 2147483647), (I, "a", 1), (D, "a", 1), (I, "b", -2147483648), (D, "b", -2147483648),
                      (I, "b", 1), (I, "b", 0), (D, "b", 1)])[:5] == [
        (0, I, 2147483647), (1, UB, 2147483647), (1, UA, -2147483648), (2, UB, -2147483648), (2, UA, 2147483647)]


def test_double_sums_subtract_in_row_order_and_a_null_sum_retracts_from_positive_zero():
    s = sum_stage("DOUBLE", "DOUBLE")
    # 1e16 + 1.0 rounds back to 1e16 (nothing emitted), then - 1e16 gives 0.0 (1.0 in another order).
    out = update(s, [(I, "a", 1e16), (I, "a", 1.0), (D, "a", 1e16), (I, "a", 0.5)])
    assert out == [(0, I, 1e16), (2, UB, 1e16), (2, UA, 0.0), (3, UB, 0.0), (3, UA, 0.5)]
    # An invalid changelog's retraction of 0.0 before any value: 0.0 - 0.0 is +0.0, not -0.0.
    z = stage("DOUBLE", [("sum_retract", "DOUBLE", None, True), ("count1", "BIGINT NOT NULL", None, True)])
    out = update(z, [(I, "z", None), (I, "z", None), (D, "z", 0.0)])
    assert [(r, k) for r, k, *_ in out] == [(0, I), (1, UB), (1, UA), (2, UB), (2, UA)]
    assert math.copysign(1.0, out[-1][2]) == 1.0 and out[-1][3] == 1


def test_decimal_sums_turn_null_past_38_digits_when_subtracting():
    s = sum_stage("DECIMAL(38, 0)", "DECIMAL(38, 0)")
    big, negative, almost = Decimal(10 ** 38 - 1), Decimal(-(10 ** 38 - 1)), Decimal(-(10 ** 38 - 2))
    # (-big + 1) - big has 39 digits: NULL while the sum still counts a row; the next value starts it again.
    out = update(s, [(I, "a", negative), (I, "a", Decimal(1)), (D, "a", big), (I, "a", Decimal(5))])
    assert out == [(0, I, negative), (1, UB, negative), (1, UA, almost), (2, UB, almost), (2, UA, None),
                   (3, UB, None), (3, UA, Decimal(5))]


def test_count_and_avg_retract_and_the_hidden_record_counter_is_not_emitted():
    s = stage("INT", [("count", "BIGINT NOT NULL", None, True), ("avg", "BIGINT", "INT", True), COUNTER])
    assert update(s, [(I, "a", 4), (I, "a", None), (I, "a", 7), (UB, "a", 4), (UA, "a", 10), (D, "a", None),
                      (D, "a", 7), (D, "a", 10)]) == [
        (0, I, 1, 4), (2, UB, 1, 4), (2, UA, 2, 5), (3, UB, 2, 5), (3, UA, 1, 7), (4, UB, 1, 7), (4, UA, 2, 8),
        (6, UB, 2, 8), (6, UA, 1, 10), (7, D, 1, 10)]


def test_decimal_avg_retracts_and_double_avg_subtracts_in_order():
    s = stage("DECIMAL(10, 2)", [("avg", "DECIMAL(38, 2)", "DECIMAL(38, 6)", True), COUNTER])
    out = update(s, [(I, "a", Decimal("1.00")), (I, "a", Decimal("2.00")), (D, "a", Decimal("1.00"))])
    assert out[-2:] == [(2, UB, Decimal("1.500000")), (2, UA, Decimal("2.000000"))]
    d = stage("DOUBLE", [("avg", "DOUBLE", "DOUBLE", True), COUNTER])
    out = update(d, [(I, "a", 1e16), (I, "a", 1.0), (D, "a", 1e16)])
    assert out[-1] == (2, UA, 0.0)


def test_state_after_retractions_snapshots_only_keys_with_rows_and_restores():
    s = sum_stage("INT", "INT")
    update(s, [(I, "a", 1), (I, "b", 2), (D, "a", 1), (I, "c", 3)])
    snapshot = s.process(pa.RecordBatch.from_arrays([], schema=pa.schema([])).replace_schema_metadata(
        {b"accelerator.call": b"snapshot", b"accelerator.state_budget": BUDGET}))
    assert sorted(snapshot.column("$key").to_pylist()) == [b"b", b"c"]
    assert snapshot.column("$acc0.1").to_pylist() == [1, 1]
    restored = sum_stage("INT", "INT")
    restored.process(snapshot.replace_schema_metadata(
        {**snapshot.schema.metadata, b"accelerator.call": b"restore", b"accelerator.state_budget": BUDGET,
         b"accelerator.key_group_start": b"0", b"accelerator.key_group_end": b"127"}))
    assert update(restored, [(D, "b", 2), (I, "c", 1), (D, "a", 1)]) == [(0, D, 2), (1, UB, 3), (1, UA, 4)]


@pytest.mark.parametrize("function", ["min", "max", "sum"])
def test_functions_without_retraction_are_refused_over_an_updating_input(function):
    with pytest.raises(DescriptorError, match="no retraction"):
        stage("INT", [(function, "INT", None, True), COUNTER])


LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
RETRACTING_INTEGERS = [("count", "BIGINT NOT NULL", None, True), ("sum_retract", "BIGINT", None, True),
                       ("avg", "BIGINT", "BIGINT", True), COUNTER]


def java_long(x: int) -> int:
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def changelog(seed: int, n: int) -> list[tuple]:
    """An upstream aggregate's changelog over a hot key and a few dozen others (each update a -U of
    the value last sent and a +U of the next, some keys deleted and inserted again), with wrapping
    extremes, NULLs and now and then a retraction no row ever inserted (an invalid changelog that
    stock ignores or lets go below zero)."""
    rng = np.random.default_rng(seed)
    sent: dict[str, list] = {}
    rows: list[tuple] = []
    while len(rows) < n:
        key = "hot" if rng.random() < 0.5 else f"k{rng.integers(30)}"
        x = (None if rng.random() < 0.1 else int(rng.choice([LONG_MAX, LONG_MIN, LONG_MIN + 1, 0]))
             if rng.random() < 0.15 else int(rng.integers(-1000, 1000)))
        held = sent.setdefault(key, [])
        roll = rng.random()
        if roll < 0.05:
            rows.append((D, key, x))  # nothing inserted it
        elif held and roll < 0.15:
            rows.append((D, key, held.pop(int(rng.integers(len(held))))))
        elif held and roll < 0.6:
            old = held.pop(int(rng.integers(len(held))))
            rows += [(UB, key, old), (UA, key, x)]
            held.append(x)
        else:
            rows.append((I, key, x))
            held.append(x)
    return rows


def retraction_model(rows: list[tuple]) -> list[tuple]:
    """GroupAggFunction row by row over RETRACTING_INTEGERS: COUNT(x), SUM(x) with its count of
    non-NULL operands, AVG(x) (long sum / count, truncating) and the hidden record counter."""
    held: dict[str, list] = {}
    out = []

    def value(acc: list) -> tuple:
        count, total, n, avg_sum, avg_count = acc[1:]
        average = None if avg_count == 0 else java_long(int(abs(avg_sum) // abs(avg_count))
                                                        * (1 if (avg_sum >= 0) == (avg_count > 0) else -1))
        return (count, None if n == 0 else total, average)

    for row, (kind, key, x) in enumerate(rows):
        retract = kind in (UB, D)
        acc = held.get(key)
        if acc is None and retract:
            continue
        fresh = acc is None
        if fresh:
            acc = held[key] = [0, 0, 0, 0, 0, 0]  # counter, COUNT(x), sum, sum's count, avg sum, avg count
        before = value(acc)
        sign = -1 if retract else 1
        acc[0] += sign
        if x is not None:
            acc[1] += sign
            acc[2], acc[3] = java_long(acc[2] + sign * x), acc[3] + sign
            acc[4], acc[5] = java_long(acc[4] + sign * x), acc[5] + sign
        after = value(acc)
        if acc[0] == 0:
            out.append((row, D, *before))
            del held[key]
        elif fresh:
            out.append((row, I, *after))
        elif after != before:
            out += [(row, UB, *before), (row, UA, *after)]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_an_updating_batch_with_hot_keys_answers_in_one_pass_what_the_levels_and_java_answer(seed, monkeypatch):
    rows = changelog(seed, 600)
    batches = [rows[:250], rows[250:251], rows[251:]]
    one_pass = stage("BIGINT", RETRACTING_INTEGERS)
    answered = []
    for offset, batch in zip([0, 250, 251], batches):
        answered += [(offset + r[0],) + r[1:] for r in update(one_pass, batch)]
    assert answered == retraction_model(rows)
    from accelerator.windowagg.accumulators import AccumulatorColumn
    monkeypatch.setattr(AccumulatorColumn, "retracts_in_one_pass", property(lambda self: False))
    by_levels = stage("BIGINT", RETRACTING_INTEGERS)
    assert [r for r in update(by_levels, rows)] == retraction_model(rows)
    assert sum(1 for _, k, _ in rows if k == "hot") > 200  # one key holds hundreds of rows
    assert any(kind == D for _, kind, *_ in answered) and any(kind == I for _, kind, *_ in answered[5:])
