"""Nested ROW field references (Substrait struct field references with children) run on DataFusion
through the sidecar's rewrite to get_field calls."""

from __future__ import annotations

import pyarrow as pa
import pytest
from substrait import plan_pb2

from accelerator.formats import timestamps
from accelerator.plans import PlanError, StagePlan, nested_fields

I64 = {"i64": {"nullability": "NULLABILITY_NULLABLE"}}
STRING = {"string": {"nullability": "NULLABILITY_NULLABLE"}}


def reference(*path: int) -> dict:
    segment: dict = {"structField": {"field": path[-1]}}
    for index in reversed(path[:-1]):
        segment = {"structField": {"field": index, "child": segment}}
    return {"selection": {"directReference": segment, "rootReference": {}}}


def descriptor(expressions: list[dict]) -> dict:
    """A stage reading `outer ROW<id BIGINT, inner ROW<name STRING, n BIGINT>>, k BIGINT` and
    projecting `expressions` (names out_0, out_1, ...)."""
    n = len(expressions)
    struct = {"struct": {"types": [I64, {"struct": {"types": [STRING, I64], "nullability": "NULLABILITY_NULLABLE"}}],
                         "nullability": "NULLABILITY_NULLABLE"}}
    read = {"read": {"baseSchema": {"names": ["outer", "id", "inner", "name", "n", "k"],
                                    "struct": {"types": [struct, I64], "nullability": "NULLABILITY_REQUIRED"}},
                     "namedTable": {"names": ["decoded"]}}}
    project = {"project": {"common": {"emit": {"outputMapping": [2 + i for i in range(n)]}}, "input": read,
                           "expressions": expressions}}
    names = [f"out_{i}" for i in range(n)]
    return {"protocol": 1, "name": "t-to-u",
            "input": {"fields": [{"name": "value", "type": "VARBINARY(2147483647)"}]},
            "decode": {"column": "value", "format": "json", "options": {},
                       "row_type": "ROW<`outer` ROW<`id` BIGINT, `inner` ROW<`name` VARCHAR(2147483647), `n` BIGINT>>,"
                                   " `k` BIGINT>"},
            "plan": {"relations": [{"root": {"input": project, "names": names}}]},
            "encode": {"format": "json", "options": {},
                       "row_type": "ROW<" + ", ".join(f"`{name}` {t}" for name, t in zip(
                           names, ["BIGINT", "VARCHAR(2147483647)", "BIGINT", "BIGINT"][:n])) + ">"},
            "output": {"fields": [{"name": "value", "type": "VARBINARY(2147483647)"}]}}


def test_one_and_two_levels_deep_read_the_named_fields_and_null_rows_give_null():
    plan = StagePlan(descriptor([reference(0, 0), reference(0, 1, 0), reference(0, 1, 1), reference(1)]))
    batch = pa.RecordBatch.from_pylist([
        {"outer": {"id": 1, "inner": {"name": "a", "n": 10}}, "k": 7},
        {"outer": {"id": 2, "inner": None}, "k": None},
        {"outer": None, "k": 9},
    ], schema=plan.decoded_schema)
    out = plan.execute(batch)
    assert out.to_pylist() == [
        {"out_0": 1, "out_1": "a", "out_2": 10, "out_3": 7},
        {"out_0": 2, "out_1": None, "out_2": None, "out_3": None},
        {"out_0": None, "out_1": None, "out_2": None, "out_3": 9},
    ]


def test_a_plan_without_nested_references_is_left_as_it_is():
    plan = plan_pb2.Plan()
    assert nested_fields.rewrite(plan, pa.schema([])) is plan


def test_a_nested_reference_into_a_column_that_is_no_row_is_refused():
    with pytest.raises((PlanError, ValueError)):
        StagePlan(descriptor([reference(1, 0)]))


def test_a_timestamp_struct_is_a_value_not_a_row_its_parts_stay_as_held():
    """A NULL timestamp is a null struct slot over parts holding 0; a timestamp inside a NULL ROW
    becomes NULL, as Flink's field of a NULL row, its parts left as they are."""
    ts = timestamps.from_parts([5, 0], [7, 0], [True, False])
    row = pa.StructArray.from_arrays([timestamps.from_parts([9, 10], [1, 2]), pa.array([1, 2], pa.int64())],
                                     names=["t", "id"], mask=pa.array([True, False]))
    out = nested_fields.with_parent_nulls(pa.record_batch([ts, row], names=["ts", "row"]))
    assert out.column("ts").equals(ts)
    assert out.column("ts").field(0).to_pylist() == [5, 0] and out.column("ts").field(1).to_pylist() == [7, 0]
    held = out.column("row").field(0)
    assert timestamps.epoch_nanos(held) == [None, 10 * 1_000_000 + 2]
    assert held.field(0).null_count == 0 and held.field(1).null_count == 0
