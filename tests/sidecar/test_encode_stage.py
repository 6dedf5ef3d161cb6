"""An encode stage (`"kind": "encode"`, no `decode`) on the golden descriptors
substrait-plans/encode_*.json: a stock operator's rows in, the sink's messages out. (That they are
the bytes Flink's own json serializer writes for the same rows is compared by the shim's
AcceleratedOperatorEncodeTest, through the real operator; the compat suite runs them end to end.)"""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from accelerator.plans.stage import StagePlan
from accelerator.sidecar import stages
from accelerator.sidecar.encode_stage import EncodeStage
from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_the_encode_kind_runs_the_plan_over_the_rows_then_encodes_them():
    descriptor = golden("encode_join")
    stage = stages.create(descriptor)
    assert isinstance(stage, EncodeStage)
    rows = pa.RecordBatch.from_pylist(
        [{"id": 1, "seller": 7, "category": 3, "id0": 7, "name": "alice"},
         {"id": 2, "seller": 8, "category": 1, "id0": 8, "name": None}],
        schema=StagePlan(descriptor).decoded_schema)
    out = stage.process(rows)
    assert out.schema.names == ["value"]
    messages = [json.loads(v) for v in out.column(0).to_pylist()]
    assert messages == [{"name": "ALICE", "auction": 10, "big": True}, {"name": None, "auction": 20, "big": False}]


def test_a_batch_with_other_columns_is_refused():
    stage = EncodeStage(golden("encode_only"))
    with pytest.raises(ValueError, match="input fields"):
        stage.process(pa.RecordBatch.from_arrays([pa.array(["x"])], names=["other"]))


def test_an_empty_batch_gives_no_messages():
    stage = EncodeStage(golden("encode_only"))
    out = stage.process(pa.RecordBatch.from_arrays([pa.array([], pa.string())], names=["line"]))
    assert out.num_rows == 0 and out.schema.names == ["value"]


def test_a_descriptor_that_decodes_messages_is_no_encode_stage():
    descriptor = {**golden("nexmark_q2"), "kind": "encode"}
    with pytest.raises(stages.DescriptorError, match="no decode spec"):
        stages.create(descriptor)


def test_a_lone_surrogate_in_its_three_byte_form_comes_out_as_a_json_escape():
    """The shim hands a column only the encoder reads with a Java string's lone surrogates in their
    three-byte form; the message holds them as escapes (Python's json reads the Java string back)."""
    java = ["a\ud800b", "\udfff", "pair \U0001F600 then \udc00\ud800", "plain \ud7ff\ue000"]
    utf8 = pa.array([s.encode("utf-8", "surrogatepass") for s in java], pa.binary()).view(pa.string())
    out = EncodeStage(golden("encode_only")).process(pa.RecordBatch.from_arrays([utf8], names=["line"]))
    values = out.column(0).to_pylist()
    assert [json.loads(v)["line"] for v in values] == java
    assert b"\\uD800" in values[0] and b"\\uD7FF" not in values[3]
