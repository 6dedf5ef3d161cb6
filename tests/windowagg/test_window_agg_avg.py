"""AVG's fired values against AvgAggFunction as `java_semantics` computes it in the JVM: the
truncating long division narrowed to the argument's type, the wrapping BIGINT sum, the double
quotient rounded to float, DECIMAL's 38-digit HALF_UP division into scale max(6, s), NULL for a
window of NULL arguments, and the global phase's (sum, count) partials."""

from __future__ import annotations

from decimal import Decimal

import java_semantics as java
import numpy as np
import pytest
from test_window_agg_numerics import fired_values, rows
from window_agg_client import CallFailed, descriptor

LONG_MAX = 2 ** 63 - 1


def avg(arg: str, sum_type: str, result: str) -> dict:
    return {"function": "avg", "arg": arg, "acc": sum_type, "result": result}


@pytest.mark.parametrize("arg_type, operands, expected", [
    ("TINYINT", [127, 127, -128, 1, None], 31),
    ("SMALLINT", [-7, -8, None, 2], -4),  # -13 / 3: truncated toward zero, not floored
    ("INT", [2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1], 2 ** 31 - 1),  # the BIGINT sum does not wrap at INT
    ("BIGINT", [LONG_MAX, LONG_MAX, 4], 0),  # the BIGINT sum wraps: 2 / 3
])
def test_integer_averages_divide_a_bigint_sum_truncating_and_narrow_to_the_argument_type(
        sidecar, arg_type, operands, expected):
    stage = sidecar.open(descriptor([avg("x", "BIGINT", arg_type)], arguments={"x": arg_type}))
    stage.update(rows({"x": operands}))
    assert fired_values(stage)["avg0"] == java.avg_of(arg_type, operands) == expected


@pytest.mark.parametrize("arg_type, operands", [
    # FLOAT operands as the column holds them (0.1f...), widened exactly into the DOUBLE sum.
    ("FLOAT", [float(np.float32(x)) if x is not None else None for x in (0.1, 0.2, 0.3, None, 16777216.0)]),
    ("DOUBLE", [1e16, 1.0, 1.0, -1e16, 0.3]),
    ("DOUBLE", [-0.0, -0.0]),  # the sum starts at +0.0: +0.0 + -0.0 is +0.0
])
def test_floating_averages_divide_a_double_sum_added_in_order(sidecar, arg_type, operands):
    stage = sidecar.open(descriptor([avg("x", "DOUBLE", arg_type)], arguments={"x": arg_type}))
    stage.update(rows({"x": operands[:2]}))
    stage.update(rows({"x": operands[2:]}))
    got, expected = fired_values(stage)["avg0"], java.avg_of(arg_type, operands)
    assert (got, str(got)) == (expected, str(expected))


def test_decimal_averages_round_half_up_into_scale_six_and_overflow_to_null(sidecar):
    thirds = [Decimal("1.00"), Decimal("1.00"), Decimal("0.00")]  # 0.666666666...67 HALF_UP at scale 6
    big = Decimal("9" * 36 + ".00")
    stage = sidecar.open(descriptor([avg("m", "DECIMAL(38, 2)", "DECIMAL(38, 6)")], arguments={"m": "DECIMAL(38, 2)"}))
    stage.update(rows({"m": thirds}, key="thirds") + rows({"m": [big, big, Decimal(-5), None]}, key="overflow")
                 + rows({"m": [None, None]}, key="nulls"))
    stage.flush()
    fired = {w["$key"]: w["avg0"] for w in stage.fire(10_000)}
    assert fired["thirds"] == java.avg_of("DECIMAL", thirds, 2, 6) == Decimal("0.666667")
    # The sum passed 38 digits and stays NULL though a later operand would bring it back.
    assert fired["overflow"] is java.avg_of("DECIMAL", [big, big, Decimal(-5)], 2, 6) is None
    assert fired["nulls"] is None


def test_a_decimal_average_with_a_larger_scale_keeps_it(sidecar):
    operands = [Decimal("0.00000001"), Decimal("0.00000002"), Decimal("0.00000002")]
    stage = sidecar.open(descriptor([avg("m", "DECIMAL(38, 8)", "DECIMAL(38, 8)")], arguments={"m": "DECIMAL(10, 8)"}))
    stage.update(rows({"m": operands}))
    assert fired_values(stage)["avg0"] == java.avg_of("DECIMAL", operands, 8, 8) == Decimal("0.00000002")


def test_the_global_phase_merges_sum_and_count_partials(sidecar):
    stage = sidecar.open(descriptor(
        [{"function": "count1", "arg": "c", "acc": "BIGINT NOT NULL"},
         {**avg("s", "BIGINT", "INT"), "count_arg": "n"}],
        phase="global", arguments={"c": "BIGINT NOT NULL", "s": "BIGINT", "n": "BIGINT"}))
    # Three local partials of one window: rows [5, -9], [None], [2, 2, -7].
    stage.update(rows({"c": [2, 1], "s": [-4, 0], "n": [2, 0]}, t=10_000))
    stage.flush()
    stage.update(rows({"c": [3], "s": [-3], "n": [3]}, t=10_000))
    window = fired_values(stage)
    assert window["avg1"] == java.avg_of("INT", [5, -9, None, 2, 2, -7]) == -1
    state = stage.snapshot()
    assert state.num_rows == 0  # fired and expired; the layout is checked by the restore test


def test_avg_state_restores_into_a_new_stage_with_its_sum_and_count(sidecar):
    spec = descriptor([avg("m", "DECIMAL(38, 2)", "DECIMAL(38, 6)"), avg("d", "DOUBLE", "DOUBLE")],
                      arguments={"m": "DECIMAL(10, 2)", "d": "DOUBLE"})
    before = sidecar.open(spec)
    before.update(rows({"m": [Decimal("1.50"), None], "d": [0.1, 0.2]}))
    before.flush()
    state = before.snapshot()
    assert state.column("$acc0").to_pylist() == [Decimal("1.50")]
    assert state.column("$acc0.1").to_pylist() == [1]
    assert state.column("$acc1").to_pylist() == [java.plus("DOUBLE", 0.1, 0.2)]
    assert state.column("$acc1.1").to_pylist() == [2]
    after = sidecar.open(spec)
    after.restore(state, key_groups=(0, 127))
    after.update(rows({"m": [Decimal("2.00")], "d": [0.3]}))
    window = fired_values(after)
    assert window["avg0"] == java.avg_of("DECIMAL", [Decimal("1.50"), Decimal("2.00")], 2, 6) == Decimal("1.750000")
    assert window["avg1"] == java.avg_of("DOUBLE", [0.1, 0.2, 0.3])


@pytest.mark.parametrize("change, reason", [
    ({"acc": "BIGINT", "result": "BIGINT"}, "accumulates as BIGINT, but Flink's accumulator for it is DECIMAL(38, 2)"),
    ({"result": "DECIMAL(38, 2)"}, "not Flink's AVG result"),
    ({"count_arg": "m"}, "only AVG in phase global"),
])
def test_avg_descriptors_other_than_flinks_are_refused(sidecar, change, reason):
    spec = descriptor([{**avg("m", "DECIMAL(38, 2)", "DECIMAL(38, 6)"), **change}], arguments={"m": "DECIMAL(10, 2)"})
    with pytest.raises(CallFailed, match=reason.replace("(", r"\(").replace(")", r"\)")):
        sidecar.open(spec)
