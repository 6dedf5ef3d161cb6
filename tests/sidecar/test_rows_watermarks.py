"""A rows stage with a `watermark` section: besides its rows it answers `marks`, one row per
message of the batch with each watermark column's value in epoch milliseconds (Flink's
TimestampData.getMillisecond(), floored), computed by the section's plan over the same decoded
table; the response body holds the two batches as two IPC streams back to back."""

from __future__ import annotations

import copy
import json
import struct

import numpy as np
import pyarrow as pa
import pytest

from accelerator.formats import timestamps
from accelerator.plans.stage import MESSAGE, PlanError
from accelerator.sidecar import stages
from accelerator.sidecar.control import FAILED, SidecarControl
from accelerator.sidecar.segment_stage import EXACT_PATH_METADATA, SKIPPED_METADATA
from accelerator.sidecar.shm import HEADER_SIZE, RegionError, SharedRegion
from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"
LTZ3 = "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def field(index: int) -> dict:
    return {"selection": {"directReference": {"structField": {"field": index} if index else {}}, "rootReference": {}}}


def projection(read: dict, expressions: list[dict], names: list[str], condition: dict | None = None,
               extensions: dict | None = None) -> dict:
    """A Substrait plan in the shim's style: read `decoded`, maybe filter, one projection of
    `expressions` carrying `$message` (the read's last column) on; `names` depth-first."""
    width = len(read["baseSchema"]["struct"]["types"])  # columns (the names are depth-first)
    source = {"read": read} if condition is None else {"filter": {"input": {"read": read}, "condition": condition}}
    emit = [width + i for i in range(len(expressions))] + [width - 1]
    root = {"project": {"common": {"emit": {"outputMapping": emit}}, "input": source, "expressions": expressions}}
    return {**(extensions or {}), "relations": [{"root": {"input": root, "names": names + [MESSAGE]}}]}


def descriptor(**watermark_changes) -> dict:
    """The bid table (golden rows_group_aggregate's source) with the Kafka record timestamp: the main
    plan keeps `price > 100` and projects channel and price; the watermark plan projects the
    `dateTime` column (TIMESTAMP(3)) as "watermark" and the record timestamp (TIMESTAMP_LTZ(3)) as
    "rowtime". Neither plan reads the other's columns."""
    d = golden("rows_group_aggregate")
    main = d["plan"]
    read = main["relations"][0]["root"]["input"]["project"]["input"]["filter"]["input"]["read"]
    condition = main["relations"][0]["root"]["input"]["project"]["input"]["filter"]["condition"]
    schema = read["baseSchema"]
    assert schema["names"][-1] == MESSAGE and schema["names"][5] == "dateTime"
    schema["names"][-1:-1] = ["timestamp", "millis", "nanos"]  # depth-first: a timestamp's parts follow it
    schema["struct"]["types"].insert(-1, timestamp_type("NULLABILITY_REQUIRED"))
    d["input"]["fields"].append({"name": "timestamp", "type": LTZ3})
    d["decode"]["options"] = {"json.ignore-parse-errors": "true"}
    d["plan"] = projection(read, [field(3), field(2)], ["channel", "price"], condition,
                           {k: main[k] for k in ("extensions", "extensionUrns")})
    d["output"]["fields"] = [{"name": "channel", "type": "VARCHAR(2147483647)"}, {"name": "price", "type": "BIGINT"},
                             {"name": MESSAGE, "type": "INT NOT NULL"}]
    d["watermark"] = {"fields": [{"name": "watermark", "type": "TIMESTAMP(3)"}, {"name": "rowtime", "type": LTZ3},
                                 {"name": MESSAGE, "type": "INT NOT NULL"}],
                      "plan": projection(copy.deepcopy(read), [field(5), field(7)],
                                         ["watermark", "millis", "nanos", "rowtime", "millis", "nanos"])}
    d["watermark"].update(watermark_changes)
    return d


def timestamp_type(nullability: str) -> dict:
    """A TIMESTAMP/TIMESTAMP_LTZ in the shim's Substrait: struct{i64 millis, i32 nanos}."""
    return {"struct": {"types": [{"i64": {"nullability": "NULLABILITY_REQUIRED"}},
                                 {"i32": {"nullability": "NULLABILITY_REQUIRED"}}], "nullability": nullability}}


def nanos(text: str) -> int:
    return int(np.datetime64(text, "ns").astype(np.int64))


MESSAGES = [
    b'{"price": 50, "channel": "a", "dateTime": "1969-12-31 23:59:58.123456"}',  # filtered out by the main plan
    b'{"price": ',  # skipped: ignore-parse-errors
    b'{"price": 500, "channel": "b", "dateTime": "2026-01-01 00:00:00.123456"}',
    b'{"price": 1000}',  # null dateTime
    None,  # a tombstone: no row
    b'{"price": 7, "dateTime": "1969-12-31 23:59:59.9995"}',
]
RECORD_TIMES = [-1, 0, nanos("2026-01-01T00:00:01.999999"), 5_000_000, 7_000_000, -1_000_001]


def batch(messages=MESSAGES, times=RECORD_TIMES) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(messages, pa.binary()), timestamps.from_epoch_nanos(times)],
                                      names=["value", "timestamp"])


MARKS_SCHEMA = pa.schema([pa.field("watermark", pa.int64()), pa.field("rowtime", pa.int64())])


def test_each_message_gets_its_timestamps_in_floored_epoch_millis_even_where_the_plan_drops_its_row():
    rows, marks = stages.create(descriptor()).process(batch())
    assert rows.to_pylist() == [{"channel": "b", "price": 500, MESSAGE: 2}, {"channel": None, "price": 1000, MESSAGE: 3}]
    assert rows.schema.metadata[SKIPPED_METADATA] == b"1"  # the skipped message is counted on the rows answer
    assert int(rows.schema.metadata[EXACT_PATH_METADATA]) >= 1  # it left the fast path, as may others
    assert marks.schema == MARKS_SCHEMA and marks.num_rows == len(MESSAGES)
    assert marks.column("watermark").to_pylist() == [
        -1877,  # 1969-12-31 23:59:58.123456 is -1876.544 ms: floored, not truncated to -1876
        None,  # skipped by ignore-parse-errors
        1767225600123,
        None,  # null dateTime
        None,  # a tombstone makes no row
        -1,  # -0.5 ms
    ]
    assert marks.column("rowtime").to_pylist() == [-1, None, 1767225601999, 5, None, -2]


def test_the_decoder_builds_the_columns_only_the_watermark_plan_reads():
    stage = stages.create(descriptor())
    assert "dateTime" not in stage._plan.read_fields and "dateTime" in stage._watermarks.read_fields
    _, marks = stage.process(batch())
    assert marks.column("watermark").to_pylist()[2] == 1767225600123


def test_an_empty_batch_answers_both_batches():
    rows, marks = stages.create(descriptor()).process(batch([], []))
    assert rows.num_rows == 0 and rows.schema.names == ["channel", "price", MESSAGE]
    assert marks.num_rows == 0 and marks.schema == MARKS_SCHEMA


def test_a_message_with_several_rows_takes_its_last_rows_values():
    stage = stages.create(descriptor())
    # rows out of message order, message 1 with three rows and message 0 with two, message 2 none
    result = pa.RecordBatch.from_arrays(
        [timestamps.from_epoch_nanos([1_000_000, 5_000_000, 2_000_000, None, 9_000_000]),
         timestamps.from_epoch_nanos([1, 2, 3, 4, 5]),
         pa.array([1, 0, 1, 1, 0], pa.int32())],
        names=["watermark", "rowtime", MESSAGE])
    stage._watermarks.execute = lambda table, **_: result
    marks = stage._marks(None, 3)
    assert marks.column("watermark").to_pylist() == [9, None, None]
    assert marks.column("rowtime").to_pylist() == [0, 0, None]


def test_marks_hold_flinks_whole_range_as_the_floored_milliseconds():
    stage = stages.create(descriptor())
    first, last = -62_167_219_200_000 * 1_000_000 + 1, 253_402_300_799_999 * 1_000_000 + 999_999  # 0000 and 9999
    result = pa.RecordBatch.from_arrays(
        [timestamps.from_epoch_nanos([first, last]), timestamps.from_epoch_nanos([last, None]),
         pa.array([0, 1], pa.int32())], names=["watermark", "rowtime", MESSAGE])
    stage._watermarks.execute = lambda table, **_: result
    marks = stage._marks(None, 2)
    assert marks.column("watermark").to_pylist() == [-62_167_219_200_000, 253_402_300_799_999]
    assert marks.column("rowtime").to_pylist() == [253_402_300_799_999, None]


def test_a_stage_without_a_watermark_section_answers_one_batch():
    d = descriptor()
    del d["watermark"]
    assert isinstance(stages.create(d).process(batch()), pa.RecordBatch)


@pytest.mark.parametrize("change, error", [
    ({"fields": [{"name": "watermark", "type": "BIGINT"}, {"name": MESSAGE, "type": "INT NOT NULL"}]},
     "watermark field 'watermark' is BIGINT, not a TIMESTAMP"),
    ({"fields": [{"name": "watermark", "type": "TIMESTAMP(3)"}]}, r"last watermark field must be '\$message'"),
    ({"fields": [{"name": MESSAGE, "type": "INT NOT NULL"}]}, "names no column"),
])
def test_a_bad_watermark_section_is_refused_at_open(change, error):
    with pytest.raises(PlanError, match=error):
        stages.create(descriptor(**change))


def test_a_watermark_plan_datafusion_cannot_take_fails_at_open():
    d = descriptor()
    plan = d["watermark"]["plan"]
    plan["extensionUrns"] = [{"extensionUrnAnchor": 1, "urn": "extension:io.substrait:functions_datetime"}]
    plan["extensions"] = [{"extensionFunction": {"functionAnchor": 1, "name": "no_such_function",
                                                 "extensionUrnReference": 1}}]
    plan["relations"][0]["root"]["input"]["project"]["expressions"][0] = {"scalarFunction": {
        "functionReference": 1, "outputType": timestamp_type("NULLABILITY_NULLABLE"), "arguments": [{"value": field(5)}]}}
    with pytest.raises(Exception, match="no_such_function"):
        stages.create(d)


def test_only_a_rows_stage_takes_a_watermark_section():
    d = golden("nexmark_q0")
    d["watermark"] = descriptor()["watermark"]
    with pytest.raises(PlanError, match="only a rows stage"):
        stages.create(d)


# -- transport ---------------------------------------------------------------------------------------------
@pytest.fixture
def sidecar():
    """The control object between a JVM-side request writer and response reader."""
    requests, responses = SharedRegion.create("request"), SharedRegion.create("response")
    sidecar_requests, jvm_responses = SharedRegion.attach(requests.path), SharedRegion.attach(responses.path)
    control = SidecarControl(sidecar_requests, responses, lambda: None)
    yield control, requests, jvm_responses
    for region in (sidecar_requests, jvm_responses, responses, requests):
        region.close()


def stream(b: pa.RecordBatch) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, b.schema) as writer:
        writer.write_batch(b)
    return sink.getvalue().to_pybytes()


def body(region: SharedRegion, length: int) -> bytes:
    with open(region.path, "rb") as f:
        header = f.read(HEADER_SIZE)
        assert struct.unpack_from("<Q", header, 32)[0] == length
        return f.read(length)


@pytest.mark.parametrize("messages, times", [(MESSAGES, RECORD_TIMES), ([], [])], ids=["batch", "empty"])
def test_the_response_body_holds_the_rows_stream_then_the_marks_stream(sidecar, messages, times):
    control, requests, responses = sidecar
    stage = control.open(json.dumps(descriptor()))
    assert stage > 0, control.lastError()
    requests.write_batch(1, batch(messages, times))
    length = control.process(stage, 1)
    assert length != FAILED, control.lastError()
    rows, marks = responses.read_batches(1)
    expected_rows, expected_marks = stages.create(descriptor()).process(batch(messages, times))
    assert rows.equals(expected_rows) and rows.schema.metadata == expected_rows.schema.metadata
    assert marks.equals(expected_marks) and marks.num_rows == len(messages)
    assert body(responses, length) == stream(expected_rows) + stream(expected_marks)
    with pytest.raises(RegionError, match="holds 2 streams, not one"):
        responses.read_batch(1)


def test_a_stage_without_a_watermark_section_writes_one_stream_as_before(sidecar):
    control, requests, responses = sidecar
    d = descriptor()
    del d["watermark"]
    stage = control.open(json.dumps(d))
    requests.write_batch(1, batch())
    length = control.process(stage, 1)
    expected = stages.create(d).process(batch())
    assert body(responses, length) == stream(expected)
    [rows] = responses.read_batches(1)
    assert rows.equals(expected) and responses.read_batch(1).equals(expected)


def test_read_batches_is_zero_copy_over_the_mapping(sidecar):
    _, requests, _ = sidecar
    reader = SharedRegion.attach(requests.path)
    first = pa.record_batch({"value": pa.array([b"abc"] * 10, pa.binary())})
    second = pa.record_batch({"watermark": pa.array(range(10), pa.int64())})
    requests.write_batches(3, [first, second])
    got = reader.read_batches(3)
    assert [b.equals(e) for b, e in zip(got, (first, second))] == [True, True] and len(got) == 2
    start = pa.py_buffer(reader._map).address
    assert all(start <= b.column(0).buffers()[1].address < start + reader.size for b in got)
    del got
    reader.close()
