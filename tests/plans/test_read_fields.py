"""Which decoded columns a stage's plan reads: the decoder builds only those (and checks the rest).
Expected sets come from the golden queries' SQL (substrait-plans/*.sql), read by hand."""

from __future__ import annotations

import pyarrow as pa
import pytest
from substrait import plan_pb2

from accelerator.formats import timestamps
from accelerator.plans import StagePlan
from accelerator.plans.read_fields import read_fields, union
from goldens import descriptor

ALL_BID_FIELDS = {"auction": None, "bidder": None, "price": None, "channel": None, "url": None,
                  "dateTime": None, "extra": None}


@pytest.mark.parametrize("name, expected", [
    # SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0
    ("nexmark_q2", {"auction": None, "price": None}),
    # SELECT auction, bidder, 0.908 * price, dateTime, extra FROM bid
    ("nexmark_q1", {k: None for k in ("auction", "bidder", "price", "dateTime", "extra")}),
    # SELECT * FROM bid
    ("nexmark_q0", ALL_BID_FIELDS),
    # the bid view (bid.* WHERE event_type = 2) and q2's selection
    ("nexmark_std_q2", {"event_type": None, "bid": {"auction": None, "price": None}}),
    # auction, bidder, price, channel and SPLIT_INDEX(url, '/', 3..5) of the bid view
    ("nexmark_std_q22", {"event_type": None,
                         "bid": {"auction": None, "bidder": None, "price": None, "channel": None, "url": None}}),
    # auction, bidder, price, dateTime, extra of the bid view, whose dateTime is the table's
    # computed CASE over the three objects' dateTime
    ("nexmark_std_q0", {"event_type": None,
                        "bid": {k: None for k in ("auction", "bidder", "price", "dateTime", "extra")},
                        "person": {"dateTime": None}, "auction": {"dateTime": None}}),
])
def test_the_columns_a_golden_query_reads(name, expected):
    assert StagePlan(descriptor(name)).read_fields == expected


def test_a_rows_stage_reads_the_message_index_it_hands_on():
    read = StagePlan(descriptor("rows_group_aggregate")).read_fields
    assert read is not None and "$message" in read


def test_two_plans_over_one_table_read_what_either_reads():
    a = {"auction": None, "bid": {"price": None, "url": None}, "person": {"name": None}}
    b = {"dateTime": None, "bid": {"price": None, "extra": None}, "person": None}
    assert union(a, b) == {"auction": None, "dateTime": None, "bid": {"price": None, "url": None, "extra": None},
                           "person": None}
    assert union(b, a) == union(a, b)
    assert union(a, None) is None and union(None, b) is None


def test_a_plan_of_another_shape_counts_as_reading_everything():
    plan = plan_pb2.Plan()
    root = plan.relations.add().root
    root.input.sort.input.read.base_schema.names.append("a")  # a relation the pass does not follow
    assert read_fields(plan, pa.schema([pa.field("a", pa.int64())])) is None


def test_a_reference_to_a_computed_column_reads_nothing_more():
    """project [a + b] then project [$2]: the second reads the sum, not a table column again."""
    plan = plan_pb2.Plan()
    root = plan.relations.add().root
    outer = root.input.project
    inner = outer.input.project
    inner.input.read.base_schema.names.extend(["a", "b", "c"])
    add = inner.expressions.add().scalar_function
    for field in (0, 1):
        add.arguments.add().value.selection.direct_reference.struct_field.field = field
        add.arguments[-1].value.selection.root_reference.SetInParent()
    selection = outer.expressions.add().selection
    selection.direct_reference.struct_field.field = 3
    selection.root_reference.SetInParent()
    outer.common.emit.output_mapping.append(4)
    schema = pa.schema([pa.field(n, pa.int64()) for n in "abc"])
    assert read_fields(plan, schema) == {"a": None, "b": None}


def test_a_filter_on_a_plain_boolean_column_reads_it():
    """filter [$1] (WHERE flag) then project [$0]: both columns are read."""
    plan = plan_pb2.Plan()
    root = plan.relations.add().root
    project = root.input.project
    condition = project.input.filter.condition.selection
    condition.direct_reference.struct_field.field = 1
    condition.root_reference.SetInParent()
    project.input.filter.input.read.base_schema.names.extend(["a", "flag", "c"])
    selection = project.expressions.add().selection
    selection.direct_reference.struct_field.field = 0
    selection.root_reference.SetInParent()
    project.common.emit.output_mapping.append(3)
    schema = pa.schema([pa.field("a", pa.int64()), pa.field("flag", pa.bool_()), pa.field("c", pa.int64())])
    assert read_fields(plan, schema) == {"a": None, "flag": None}


def test_a_timestamp_is_read_whole_even_by_a_reference_to_its_parts():
    """A timestamp's struct is one value: a decoder builds it whole or not at all, never its
    `millis` alone (only a ROW's fields are read one by one)."""
    plan = plan_pb2.Plan()
    project = plan.relations.add().root.input.project
    project.input.read.base_schema.names.extend(["ts", "millis", "nanos", "row", "t", "millis", "nanos", "id"])
    for path in ((0, 0), (1, 0, 1)):
        segment = project.expressions.add().selection
        segment.root_reference.SetInParent()
        segment = segment.direct_reference.struct_field
        segment.field = path[0]
        for index in path[1:]:
            segment = segment.child.struct_field
            segment.field = index
    project.common.emit.output_mapping.extend([2, 3])
    schema = pa.schema([pa.field("ts", timestamps.ARROW_TYPE),
                        pa.field("row", pa.struct([pa.field("t", timestamps.ARROW_TYPE), pa.field("id", pa.int64())]))])
    assert read_fields(plan, schema) == {"ts": None, "row": {"t": None}}
