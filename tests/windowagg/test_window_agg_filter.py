"""FILTER (WHERE ...) clauses: Flink's generated aggs handler accumulates a row into an aggregate
only when the clause's BOOLEAN column is TRUE (FALSE and NULL skip it), each aggregate with its own
clause; the global phase merges partials the local phase already filtered."""

from __future__ import annotations

from decimal import Decimal

import java_semantics as java
import pytest
from test_window_agg_numerics import fired_values, rows
from window_agg_client import CallFailed, descriptor


def test_only_rows_whose_filter_is_true_are_accumulated(sidecar):
    stage = sidecar.open(descriptor(
        [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "filter": "big"},
         {"function": "count", "arg": "x", "acc": "BIGINT NOT NULL", "filter": "big"},
         {"function": "sum", "arg": "x", "acc": "INT", "filter": "big"},
         {"function": "max", "arg": "x", "acc": "INT", "filter": "small"},
         {"function": "avg", "arg": "m", "acc": "DECIMAL(38, 2)", "result": "DECIMAL(38, 6)", "filter": "small"},
         {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}],
        arguments={"x": "INT", "m": "DECIMAL(10, 2)", "big": "BOOLEAN", "small": "BOOLEAN"}))
    x = [5, 20, None, 30, 1, 7]
    m = [Decimal("1.00"), Decimal("2.00"), Decimal("4.00"), None, Decimal("8.00"), Decimal("0.50")]
    big = [False, True, True, True, None, False]
    small = [True, False, None, False, True, True]
    stage.update(rows({"x": x, "m": m, "big": big, "small": small}))
    window = fired_values(stage)
    kept = lambda values, where: [v for v, w in zip(values, where) if w is True]
    assert window["count10"] == 3  # COUNT(*) FILTER: the rows where big is TRUE
    assert window["count1"] == java.count_of(kept(x, big)) == 2
    assert window["sum2"] == java.sum_of("INT", kept(x, big)) == 50
    assert window["max3"] == java.max_of(kept(x, small)) == 7
    assert window["avg4"] == java.avg_of("DECIMAL", kept(m, small), 2, 6) == Decimal("3.166667")
    assert window["count15"] == 6


def test_a_window_whose_rows_all_fail_the_filter_gives_zero_counts_and_null_values(sidecar):
    stage = sidecar.open(descriptor(
        [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"},
         {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "filter": "f"},
         {"function": "min", "arg": "x", "acc": "BIGINT", "filter": "f"}],
        arguments={"x": "BIGINT", "f": "BOOLEAN"}))
    stage.update(rows({"x": [3, 4], "f": [False, None]}))
    window = fired_values(stage)
    assert (window["count10"], window["count11"], window["min2"]) == (2, 0, None)


@pytest.mark.parametrize("change, reason", [
    ({"filter": "x"}, "FILTER column 'x' is no BOOLEAN input field"),
    ({"filter": "missing"}, "FILTER column 'missing'"),
])
def test_a_filter_that_is_no_boolean_input_column_is_refused(sidecar, change, reason):
    with pytest.raises(CallFailed, match=reason):
        sidecar.open(descriptor([{"function": "sum", "arg": "x", "acc": "INT", **change}],
                                arguments={"x": "INT", "f": "BOOLEAN"}))


def test_the_global_phase_takes_no_filter(sidecar):
    with pytest.raises(CallFailed, match="FILTER column 'f' is no BOOLEAN input field of phase single"):
        sidecar.open(descriptor([{"function": "sum", "arg": "s", "acc": "INT", "filter": "f"}], phase="global",
                                arguments={"s": "INT", "f": "BOOLEAN"}))
