"""What a stage that writes messages does besides encoding them: it hands the Kafka metadata the
sink writes (`timestamp`, `headers`) back unchanged after the message bytes, for Flink's own sink
to write, and it fails where Flink's sink fails: on a NULL in a NOT NULL sink column, as the not-null
enforcer does under ERROR (first such row, its first such column in the sink's column order), and
on a NULL rowtime, as the timestamp inserter after it does. Flink meets the rows one by one, so the
first row failing either check decides, and in a row failing both the enforcer's error wins."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from accelerator.formats import types
from accelerator.plans.stage import output_schema
from accelerator.sidecar.segment_stage import MessageEncoder
from accelerator.sidecar.sink_checks import SinkNotNullError, SinkRowtimeNullError
from accelerator.testing import locations

LTZ = "TIMESTAMP(3) WITH LOCAL TIME ZONE"
HEADERS = "MAP<VARCHAR(2147483647), VARBINARY(2147483647)>"


def descriptor(**extra) -> dict:
    golden = json.loads((locations.REPO_ROOT / "substrait-plans" / "encode_only.json").read_text(encoding="utf-8"))
    golden["output"]["fields"] += [{"name": "headers", "type": HEADERS}, {"name": "timestamp", "type": LTZ}]
    return {**golden, **extra}


def result(lines, headers, stamps) -> pa.RecordBatch:
    schema = output_schema(descriptor())
    return pa.RecordBatch.from_arrays([pa.array(lines, pa.string()),
                                       pa.array(headers, schema.field("headers").type),
                                       pa.array(stamps, schema.field("timestamp").type)], schema=schema)


def test_written_metadata_follows_the_encoded_value_unchanged():
    headers = [[("z", b"1"), ("n", None), ("", b""), ("a", "é😀".encode())], [], None]
    stamps = [{"millis": -1234, "nanos": 999_999}, None, {"millis": 1_700_000_000_000, "nanos": 0}]
    out = MessageEncoder("s", descriptor()).encode(result(["x", None, "z"], headers, stamps))
    assert out.schema.names == ["value", "headers", "timestamp"]
    assert out.schema.field("headers").type == types.to_arrow(types.parse(HEADERS))
    assert [json.loads(v) for v in out.column("value").to_pylist()] == [{"line": "x"}, {"line": None}, {"line": "z"}]
    assert out.column("headers").to_pylist() == headers, "order, duplicates' absence and NULL values kept"
    assert out.column("timestamp").to_pylist() == stamps


def test_a_null_in_a_not_null_column_fails_on_the_first_such_row():
    encoder = MessageEncoder("s", descriptor(not_null={"columns": ["line"]}))
    rows = result(["a", "b", None, None], [None] * 4, [None] * 4)
    with pytest.raises(SinkNotNullError, match="'line'.*result row 2") as failure:
        encoder.encode(rows)
    assert (failure.value.column, failure.value.result_row) == ("line", 2)
    assert MessageEncoder("s", descriptor()).encode(rows).num_rows == 4, "without not_null a NULL is written"


def test_both_checks_are_one_pass_over_the_rows_the_first_failing_row_decides():
    # the timestamp column is the rowtime the sink copies into each record (written metadata here)
    encoder = MessageEncoder("s", descriptor(not_null={"columns": ["line"]}, rowtime={"column": "timestamp"}))
    stamp = {"millis": 0, "nanos": 0}
    with pytest.raises(SinkRowtimeNullError, match="'timestamp' is NULL in result row 1") as rowtime_first:
        encoder.encode(result(["a", "b", None], [None] * 3, [stamp, None, stamp]))
    assert (rowtime_first.value.column, rowtime_first.value.result_row) == ("timestamp", 1)
    with pytest.raises(SinkNotNullError, match="'line'.*result row 1") as not_null_first:
        encoder.encode(result(["a", None, "c"], [None] * 3, [stamp, stamp, None]))
    assert not_null_first.value.result_row == 1
    assert encoder.encode(result(["a", "b"], [None] * 2, [stamp, stamp])).num_rows == 2


def test_a_row_failing_both_checks_fails_on_its_not_null_column_as_the_enforcer_runs_first():
    encoder = MessageEncoder("s", descriptor(not_null={"columns": ["line"]}, rowtime={"column": "timestamp"}))
    stamp = {"millis": 0, "nanos": 0}
    with pytest.raises(SinkNotNullError, match="'line'.*result row 1"):
        encoder.encode(result(["a", None, None], [None] * 3, [stamp, None, None]))


def test_a_null_rowtime_fails_without_not_null_columns_and_only_where_the_descriptor_names_one():
    stamp = {"millis": 5, "nanos": 0}
    rows = result(["a", None], [None] * 2, [stamp, None])
    with pytest.raises(SinkRowtimeNullError, match="result row 1.*'table.exec.sink.rowtime-inserter'"):
        MessageEncoder("s", descriptor(rowtime={"column": "timestamp"})).encode(rows)
    assert MessageEncoder("s", descriptor()).encode(rows).num_rows == 2, "no rowtime section: the NULL is written"
