"""StagePlan on the golden descriptors without services: opening, empty batches, the UDF wiring,
and Flink's edge semantics of the sidecar's own functions (expected values from Flink's rules)."""

from __future__ import annotations

import pyarrow as pa
import pytest

from accelerator.plans import PlanError, StagePlan
from accelerator.plans import udfs
from goldens import accelerated_names, descriptor, golden_names

FLINK_URN = "extension:org.flinkaccelerator:functions_flink"
INT_MIN = -2**31


def test_there_are_golden_descriptors_and_fallbacks():
    assert len(golden_names()) >= 12
    assert len(accelerated_names()) >= 10
    assert set(golden_names()) - set(accelerated_names()), "no golden fallback left"


@pytest.mark.parametrize("name", accelerated_names())
def test_empty_batch_gives_empty_batch_with_the_encoded_row_schema(name):
    plan = StagePlan(descriptor(name))
    out = plan.execute(pa.RecordBatch.from_pylist([], schema=plan.decoded_schema))
    assert out.num_rows == 0
    assert out.schema == plan.output_schema


@pytest.mark.parametrize("name", accelerated_names())
def test_every_flink_function_a_plan_names_is_a_registered_udf(name):
    plan = descriptor(name)["plan"]
    flink = {u["extensionUrnAnchor"] for u in plan.get("extensionUrns", []) if u["urn"] == FLINK_URN}
    named = {e["extensionFunction"]["name"] for e in plan.get("extensions", [])
             if e["extensionFunction"].get("extensionUrnReference") in flink}
    assert named <= {u.name for u in udfs.flink_udfs()}


def test_other_protocols_are_refused():
    with pytest.raises(PlanError, match="protocol"):
        StagePlan({**descriptor("nexmark_q2"), "protocol": 2})


def test_fallback_documents_name_their_reasons():
    for name in set(golden_names()) - set(accelerated_names()):
        assert all(r["why"] for r in descriptor(name)["fallback"]), name


# -- the sidecar's Flink functions ---------------------------------------------------------------
def ints(values, t=pa.int32()):
    return pa.array(values, t)


def test_divide_is_java_integer_division():
    out = udfs.divide(ints([7, -7, INT_MIN, INT_MIN, 5, None]), ints([2, 2, -1, 3, None, 0]))
    assert out.to_pylist() == [3, -3, INT_MIN, -715827882, None, None]


def test_divide_by_zero_fails_like_flink():
    with pytest.raises(udfs.FlinkArithmeticError, match="by zero"):
        udfs.divide(ints([1]), ints([0]))


def test_abs_of_min_is_min_as_in_java():
    assert udfs.absolute(ints([INT_MIN, -3, None])).to_pylist() == [INT_MIN, 3, None]


def test_concat_is_null_if_either_side_is():
    assert udfs.concat(pa.array(["a", None, "c"]), pa.array(["b", "x", None])).to_pylist() == ["ab", None, None]


# (string, position, length) -> Flink's SUBSTRING result, from its documented rules.
SUBSTRINGS = [("hello", 0, 2, "he"), ("hello", 1, 2, "he"), ("hello", 2, 100, "ello"), ("hello", -2, 5, "lo"),
              ("hello", -2, 1, "l"), ("hello", -9, 2, ""), ("hello", 9, 2, ""), ("hello", 2, -1, None),
              ("", 1, 1, ""), ("a😀bc", 2, 2, "😀b"), (None, 1, 1, None)]


@pytest.mark.parametrize("constant", [True, False], ids=["constant-arguments", "per-row-arguments"])
def test_substring_follows_flinks_positions(constant):
    for s, p, n, expected in SUBSTRINGS:
        strings = pa.array([s, "xyz"] if not constant else [s], pa.string())
        positions = ints([p, 1] if not constant else [p])
        lengths = ints([n, 1] if not constant else [n])
        assert udfs.substring(strings, positions, lengths)[0].as_py() == expected, (s, p, n)


def test_split_index_keeps_empty_pieces_and_gives_null_out_of_range():
    s = pa.array(["a,b,,c", "a,b,,c", "a,b,,c", "a,b,,c", "", None, "x,"])
    out = udfs.split_index(s, pa.array([","] * 7), ints([2, 3, 4, -1, 0, 0, 1]))
    assert out.to_pylist() == ["", "c", None, None, None, None, ""]


def test_rows_keep_their_order_through_a_filter_on_a_large_batch():
    """Kafka output order is part of the result: the plan must not reorder rows, whatever the
    batch size (DataFusion splits a batch into chunks it may run in parallel partitions)."""
    plan = StagePlan(descriptor("nexmark_q2"))
    n = 100_000
    columns = {}
    for field in plan.decoded_schema:
        if field.name == "auction":
            columns[field.name] = pa.array([123 * i for i in range(n)], field.type)
        else:
            columns[field.name] = pa.nulls(n, field.type)
    out = plan.execute(pa.RecordBatch.from_pydict(columns, schema=plan.decoded_schema))
    assert out.column(0).to_pylist() == [123 * i for i in range(n)]


