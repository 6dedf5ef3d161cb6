"""What a stage that writes messages does besides encoding them: it hands the Kafka metadata the
sink writes (`timestamp`, `headers`) back unchanged after the message bytes, for Flink's own sink
to write, and it fails on a NULL in a NOT NULL sink column as Flink's not-null enforcer does under
ERROR (first such row, its first such column in the sink's column order)."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from accelerator.formats import types
from accelerator.plans.stage import output_schema
from accelerator.sidecar.segment_stage import MessageEncoder
from accelerator.sidecar.sink_not_null import SinkNotNullError
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
