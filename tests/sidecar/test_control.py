"""The control object the JVM calls, driven in-process: stages, error replies, never a crash."""

import json
import os

import pyarrow as pa
import pytest

from accelerator.formats import FormatError
from accelerator.sidecar import PROTOCOL_VERSION, stages
from accelerator.sidecar.control import FAILED, SidecarControl
from accelerator.sidecar.shm import SharedRegion


class FailsOnRow:
    """A stage that rejects the row whose value is b"bad", like a decoder meeting a broken message."""

    def __init__(self, descriptor):
        pass

    def process(self, batch):
        for row, value in enumerate(batch.column("value").to_pylist()):
            if value == b"bad":
                raise FormatError(row, "not valid JSON", "fix the producer")
        return batch


stages.register("test-fails-on-row", FailsOnRow)


class PanicException(BaseException):
    """What pyo3 raises in Python when Rust code (DataFusion, our kernels) panics."""


class Panics:
    def __init__(self, descriptor):
        pass

    def process(self, batch):
        raise PanicException("index out of bounds: the len is 0 but the index is 0")


stages.register("test-panics", Panics)


def descriptor(kind="identity", **fields):
    return json.dumps({"protocol": 1, "kind": kind, "name": f"{kind}-stage", **fields})


@pytest.fixture
def sidecar():
    """The control object between a JVM-side request writer and response reader."""
    requests = SharedRegion.create("request")  # the JVM writes these
    responses = SharedRegion.create("response")  # the sidecar writes these
    sidecar_requests, jvm_responses = SharedRegion.attach(requests.path), SharedRegion.attach(responses.path)
    shutdowns = []
    control = SidecarControl(sidecar_requests, responses, lambda: shutdowns.append(True))
    sequence = iter(range(1, 1000))

    def send(stage_id, batch):
        n = next(sequence)
        requests.write_batch(n, batch)
        length = control.process(stage_id, n)
        return (jvm_responses.read_batch(n) if length != FAILED else json.loads(control.lastError())), length

    yield control, send, shutdowns
    for region in (sidecar_requests, jvm_responses, responses, requests):
        region.close()


def values(*items):
    return pa.record_batch({"value": pa.array(items, pa.binary())})


def test_identity_stage_hands_batches_back(sidecar):
    control, send, _ = sidecar
    assert control.protocolVersion() == PROTOCOL_VERSION
    stage = control.open(descriptor())
    assert stage > 0
    for batch in (values(b"a", b"b"), values()):
        result, length = send(stage, batch)
        assert length > 0 and result.equals(batch)


def test_stage_error_is_a_structured_reply_and_the_sidecar_carries_on(sidecar):
    control, send, _ = sidecar
    stage = control.open(descriptor("test-fails-on-row"))
    reply, length = send(stage, values(b"{}", b"{}", b"bad"))
    assert length == FAILED
    assert reply["call"] == "process" and reply["stage"] == stage and reply["sequence"] == 1
    assert reply["stage_name"] == "test-fails-on-row-stage"
    assert reply["error"] == "FormatError" and reply["row"] == 2
    assert reply["reason"] == "row 2: not valid JSON. fix the producer"
    assert reply["traceback"][0].startswith("sidecar/control.py:")
    innermost = reply["traceback"][-1]
    assert innermost.startswith("sidecar/test_control.py:") and innermost.endswith(" in process")
    assert control.lastError() == ""
    result, length = send(stage, values(b"{}"))
    assert length > 0 and result.num_rows == 1


def test_identity_stage_checks_the_declared_input_fields(sidecar):
    control, send, _ = sidecar
    stage = control.open(descriptor(input={"fields": [{"name": "value", "type": "VARBINARY(2147483647)"}]}))
    reply, length = send(stage, pa.record_batch({"other": pa.array([1])}))
    assert length == FAILED and reply["error"] == "ValueError" and reply["row"] is None
    assert "batch columns ['other'] are not the stage's input fields ['value']" in reply["reason"]


@pytest.mark.parametrize("text, reason", [
    ("{not json", "Expecting property name"),
    ("[1]", "a stage descriptor is a JSON object"),
    (json.dumps({"protocol": 2, "kind": "identity"}), "descriptor protocol 2; this sidecar runs protocol 1"),
    (json.dumps({"protocol": 1, "kind": "nope"}), "unknown stage kind 'nope'; this sidecar runs"),
    (json.dumps({"protocol": 1}), "has no decode or encode spec"),
])
def test_descriptors_the_sidecar_cannot_run_are_refused_at_open(sidecar, text, reason):
    control, _, _ = sidecar
    assert control.open(text) == FAILED
    reply = json.loads(control.lastError())
    assert reply["call"] == "open" and reason in reply["reason"], reply


def test_unknown_or_closed_stage_and_stale_batch_are_replies_not_crashes(sidecar):
    control, send, _ = sidecar
    stage = control.open(descriptor())
    control.close(stage)
    control.close(stage)
    reply, length = send(stage, values(b"x"))
    assert length == FAILED and reply["reason"] == f"no open stage with id {stage}"
    other = control.open(descriptor())
    assert other != stage
    assert control.process(other, 99) == FAILED
    assert "asked for batch 99" in json.loads(control.lastError())["reason"]


def test_shutdown_is_passed_on(sidecar):
    control, _, shutdowns = sidecar
    control.shutdown()
    assert shutdowns == [True]


def test_registering_a_kind_twice_is_a_mistake():
    with pytest.raises(ValueError, match="registered twice"):
        stages.register("identity", stages.IdentityStage)


def test_a_panic_in_rust_code_is_a_failed_call_not_a_hung_one(sidecar):
    control, send, _ = sidecar
    stage = control.open(descriptor("test-panics"))
    reply, length = send(stage, values(b"{}"))
    assert length == FAILED
    assert reply["error"] == "PanicException" and "index out of bounds" in reply["reason"]
    result, length = send(control.open(descriptor()), values(b"a"))
    assert length > 0 and result.num_rows == 1


def test_an_answer_larger_than_the_response_region_is_kept_until_the_jvm_grants_its_growth(sidecar):
    """The JVM takes an answer's growth from the TaskManager's shared-memory budget between
    `process` and `writeKeptAnswer`, and shrinks its request region meanwhile: the kept answer is a
    copy of the sidecar's own, not a view of the request it came from."""
    control, _, _ = sidecar
    responses = control._responses
    stage = control.open(descriptor())
    large = values(*[bytes([i % 251]) * 1000 for i in range(6000)])  # 6 MB: past the 4 MB response region
    initial = responses.size
    jvm_requests = SharedRegion.create("request")
    try:
        sidecar_requests = SharedRegion.attach(jvm_requests.path)
        control._requests = sidecar_requests
        jvm_requests.write_batch(1, large)
        needed = control.process(stage, 1)
        assert needed < FAILED and -needed >= large.nbytes and responses.size == initial
        assert os.stat(responses.path).st_size == initial, "process wrote nothing: the region did not grow"
        jvm_requests.write_batch(2, values(b"overwrites the request region"))  # shrinks it, overwrites the body
        assert control.writeKeptAnswer(2, -needed) == FAILED
        assert "no answer to batch 2 is kept" in json.loads(control.lastError())["reason"]
        jvm_requests.write_batch(3, large)
        needed = control.process(stage, 3)
        jvm_requests.write_batch(4, values(b"overwrites the request region"))
        length = control.writeKeptAnswer(3, -needed)
        assert length > 0 and os.stat(responses.path).st_size == -needed
        jvm_responses = SharedRegion.attach(responses.path)
        assert jvm_responses.read_batch(3).equals(large)
        jvm_responses.close()
        control.shrinkResponses()
        assert os.stat(responses.path).st_size == initial
        assert control.process(stage, 4) > 0, "a batch that fits is written at once"
        sidecar_requests.close()
    finally:
        jvm_requests.close()
