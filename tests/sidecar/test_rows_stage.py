"""A rows stage (`"encode": null`) on the golden descriptors substrait-plans/rows_*.json: message
bytes in, the plan's rows out in the Arrow layout of their Flink types, each with the index of
its message. (What Flink decodes from the same messages is compared by the shim's
AcceleratedOperatorRowsTest, through the real operator.)"""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from accelerator.formats import FormatError, timestamps, types
from accelerator.plans.stage import MESSAGE, PlanError
from accelerator.sidecar import stages
from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def values(items: list[bytes | None]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(items, pa.binary())], names=["value"])


BIDS = [b'{"auction": 1, "price": 50, "channel": "a"}',
        None,  # a tombstone: Flink's json format makes no row of it
        b'{"auction": 2, "price": 500, "channel": "b", "dateTime": "2026-01-01 00:00:00.123456"}',
        b'{"price": 1000}']


def expected_schema(descriptor: dict) -> pa.Schema:
    fields = descriptor["output"]["fields"]
    assert fields[-1] == {"name": MESSAGE, "type": "INT NOT NULL"}
    return pa.schema([types.to_arrow_field(f["name"], types.parse(f["type"])) for f in fields[:-1]]
                     + [pa.field(MESSAGE, pa.int32(), nullable=False)])


@pytest.mark.parametrize("name", ["rows_regexp", "rows_group_aggregate"])
def test_rows_come_back_in_the_shared_arrow_layout_of_their_flink_types(name):
    descriptor = golden(name)
    assert descriptor["encode"] is None and "kind" not in descriptor
    out = stages.create(descriptor).process(values(BIDS))
    assert out.schema == expected_schema(descriptor)
    empty = stages.create(descriptor).process(values([]))
    assert empty.num_rows == 0 and empty.schema == expected_schema(descriptor)


def test_each_decoded_row_names_its_message_past_tombstones():
    out = stages.create(golden("rows_regexp")).process(values(BIDS))
    assert out.column(MESSAGE).to_pylist() == [0, 2, 3]
    assert out.column("auction").to_pylist() == [1, 2, None]
    assert timestamps.epoch_nanos(out.column("dateTime"))[1] == 1_767_225_600_123_456_000


def test_a_filtering_calc_keeps_the_message_index_of_each_row_it_keeps():
    out = stages.create(golden("rows_group_aggregate")).process(values(BIDS))
    assert out.to_pylist() == [{"channel": "b", "$f1": 1000, MESSAGE: 2}, {"channel": None, "$f1": 2000, MESSAGE: 3}]


def test_a_skipped_bad_message_leaves_no_row_and_the_others_keep_their_index():
    descriptor = golden("rows_regexp")
    descriptor["decode"]["options"] = {"json.ignore-parse-errors": "true"}
    out = stages.create(descriptor).process(values([b'{"auction": 1}', b'{"auction": ', b'{"auction": 3}']))
    assert out.column(MESSAGE).to_pylist() == [0, 2]
    assert out.column("auction").to_pylist() == [1, 3]


def test_a_rows_stage_without_its_message_column_is_refused():
    descriptor = golden("rows_regexp")
    descriptor["output"]["fields"] = descriptor["output"]["fields"][:-1]
    with pytest.raises(PlanError, match=r"last output field must be '\$message'"):
        stages.create(descriptor)


def test_a_keyed_table_reads_its_key_column_from_the_key_and_a_null_key_gives_no_row():
    descriptor = golden("rows_keyed_aggregate")
    assert descriptor["decode_key"]["columns"] == ["order_id", "customer", "amount"]
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b'{"customer": "a", "amount": 5}', b'{"customer": "b", "amount": 7}',
                   b'{"customer": "c", "amount": 9}'], pa.binary()),
         pa.array([b'{"order_id": 1}', None, b'{"order_id": -4}'], pa.binary())],
        names=["value", "key"])
    out = stages.create(descriptor).process(batch)
    assert out.schema == expected_schema(descriptor)
    # WHERE order_id > 0 keeps message 0; message 1 has no key row, message 2 is filtered out.
    assert out.to_pylist() == [{"customer": "a", "amount": 5, MESSAGE: 0}]


def _unreadable_key_batch() -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays(
        [pa.array([b'{"customer": "a", "amount": 5}', b'{"customer": "b", "amount": 7}',
                   b'{"customer": "c", "amount": 9}'], pa.binary()),
         pa.array([b'{"order_id": 1}', b'{"order_id": ', b'{"order_id": 3}'], pa.binary())],
        names=["value", "key"])


def test_an_unreadable_key_under_ignore_parse_errors_fails_where_flink_2_fails_on_its_null_key_row():
    descriptor = golden("rows_keyed_aggregate")
    descriptor["decode_key"]["options"] = {"json.ignore-parse-errors": "true"}
    with pytest.raises(FormatError, match="null key row") as caught:
        stages.create(descriptor).process(_unreadable_key_batch())
    assert caught.value.row == 1


def test_an_unreadable_key_drops_its_record_where_the_descriptor_says_flink_does():
    # Flink 1.20's json key format hands its Kafka source no key row for such a key, so the
    # source emits nothing for the record (the shim says so for 1.20: unreadable_key_drops_record).
    descriptor = golden("rows_keyed_aggregate")
    descriptor["decode_key"]["options"] = {"json.ignore-parse-errors": "true"}
    descriptor["decode_key"]["unreadable_key_drops_record"] = True
    out = stages.create(descriptor).process(_unreadable_key_batch())
    assert out.to_pylist() == [{"customer": "a", "amount": 5, MESSAGE: 0}, {"customer": "c", "amount": 9, MESSAGE: 2}]


def test_a_shared_source_is_decoded_once_and_each_branch_answers_its_own_rows():
    descriptor = golden("rows_shared_source")
    assert len(descriptor["branches"]) == 1
    first, second = stages.create(descriptor).process(values(BIDS))
    # Both sides of the UNION ALL: the stage's plan (price > 100, price * 2) and its branch
    # (channel <> 'b', price + 1); the tombstone (message 1) makes no row in either.
    assert first.to_pylist() == [{"auction": 2, "EXPR$1": 1000, MESSAGE: 2}, {"auction": None, "EXPR$1": 2000, MESSAGE: 3}]
    assert second.to_pylist() == [{"auction": 1, "EXPR$1": 51, MESSAGE: 0}]
    assert second.schema == expected_schema({"output": descriptor["branches"][0]["output"]})
    empty = stages.create(descriptor).process(values([]))
    assert [e.num_rows for e in empty] == [0, 0]


def test_only_a_rows_stage_takes_branches():
    descriptor = golden("nexmark_q0")
    descriptor["branches"] = golden("rows_shared_source")["branches"]
    with pytest.raises(PlanError, match="only a rows stage may have branches"):
        stages.create(descriptor)
