"""Segments that read or write Flink's avro format, run end to end in-process: Flink's own avro
bytes in, bytes out that must equal what Flink's own serializer writes for the query's rows."""

from __future__ import annotations

import copy
import json
import sys
from datetime import datetime, timezone

import pyarrow as pa
import pytest

from accelerator.formats import FormatError
from accelerator.sidecar import segment_stage, stages
from accelerator.testing import locations
from accelerator.testing.flink_oracle import AvroSerializer, JsonSerializer

GOLDEN = locations.REPO_ROOT / "substrait-plans"
INPUTS = locations.REPO_ROOT / "tests" / "plans" / "inputs"
FIELDS = ("auction", "bidder", "price", "channel", "url", "dateTime", "extra")


def descriptor(name: str, decode_format: str, encode_format: str) -> dict:
    d = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    d = copy.deepcopy(d)
    d["decode"]["format"], d["decode"]["options"] = decode_format, {}
    d["encode"]["format"], d["encode"]["options"] = encode_format, {}
    return d


def _nanos(text: str | None) -> int | None:
    if text is None:
        return None
    t = datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
    return (int(t.timestamp()) * 1_000_000 + t.microsecond) * 1000


def bids() -> list[tuple]:
    rows = []
    for line in (INPUTS / "bid.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            b = json.loads(line)
            rows.append(tuple(_nanos(b.get(f)) if f == "dateTime" else b.get(f) for f in FIELDS))
    return rows


def values(items: list[bytes]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(items, pa.binary())], names=["value"])


def row_types(d: dict) -> tuple[str, str]:
    return d["decode"]["row_type"], d["encode"]["row_type"]


def q2_rows(rows: list[tuple]) -> list[tuple]:
    return [(r[0], r[2]) for r in rows if r[0] is not None and r[0] % 123 == 0]


@pytest.mark.parametrize("decode_format, encode_format", [("avro", "avro"), ("json", "avro"), ("avro", "json")])
def test_q2_reads_and_writes_each_format_like_flink(decode_format, encode_format):
    d = descriptor("nexmark_q2", decode_format, encode_format)
    source_type, sink_type = row_types(d)
    rows = bids()
    source = AvroSerializer if decode_format == "avro" else JsonSerializer
    sink = AvroSerializer if encode_format == "avro" else JsonSerializer
    messages = source(source_type, {}).serialize(rows)
    expected = sink(sink_type, {}).serialize(q2_rows(rows))
    assert expected, "the input must have rows the query keeps"
    out = stages.create(d).process(values(messages))
    assert out.schema == segment_stage.OUTPUT_SCHEMA
    assert out.column(0).to_pylist() == expected


def test_q0_passes_every_bid_through_byte_identical():
    d = descriptor("nexmark_q0", "avro", "avro")
    source_type, _ = row_types(d)
    messages = AvroSerializer(source_type, {}).serialize(bids())
    stage = stages.create(d)
    half = len(messages) // 2
    out = [stage.process(values(messages[:half])), stage.process(values(messages[half:]))]
    assert out[0].column(0).to_pylist() + out[1].column(0).to_pylist() == messages


def test_a_malformed_avro_message_fails_the_batch_naming_it():
    d = descriptor("nexmark_q0", "avro", "avro")
    messages = AvroSerializer(row_types(d)[0], {}).serialize(bids()[:3])
    with pytest.raises(FormatError) as caught:
        stages.create(d).process(values([messages[0], messages[1][:4], messages[2]]))
    assert caught.value.row == 1


def test_avro_options_flink_rejects_or_we_do_not_reproduce_refuse_the_stage():
    d = descriptor("nexmark_q2", "avro", "avro")
    d["encode"]["options"] = {"avro.encoding": "json"}
    with pytest.raises(stages.DescriptorError, match="avro.encoding"):
        stages.create(d)
    d = descriptor("nexmark_q2", "avro", "avro")
    d["decode"]["row_type"] = d["decode"]["row_type"].replace("TIMESTAMP(3)", "TIMESTAMP(6)")
    with pytest.raises(stages.DescriptorError, match="TIMESTAMP\\(6\\)"):
        stages.create(d)


def test_a_sidecar_that_cannot_load_the_avro_format_refuses_avro_stages(monkeypatch):
    monkeypatch.setitem(sys.modules, "accelerator.formats.avro", None)  # import now raises ImportError
    with pytest.raises(stages.DescriptorError, match="avro format cannot be loaded"):
        stages.create(descriptor("nexmark_q2", "avro", "json"))
    assert stages.create(descriptor("nexmark_q2", "json", "json")) is not None
