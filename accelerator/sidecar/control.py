"""The control calls the JVM makes on the sidecar, as a py4j callback object.

Method names are the Java interface's (`org.flinkaccelerator.sidecar.SidecarControl`), since py4j
calls them by name. A failing call never raises into py4j: it returns -1 and keeps the structured
reply (`errors.error_reply`) for `lastError()`, so one bad batch or descriptor never takes the
sidecar down and the JVM can name what failed.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
from typing import Callable

import pyarrow as pa

from accelerator.sidecar import PROTOCOL_VERSION, stages
from accelerator.sidecar.errors import error_reply
from accelerator.sidecar.shm import SharedRegion, serialize, streams_size

log = logging.getLogger(__name__)

FAILED = -1


class SidecarControl:
    class Java:
        implements = ["org.flinkaccelerator.sidecar.SidecarControl"]

    def __init__(self, requests: SharedRegion, responses: SharedRegion, on_shutdown: Callable[[], None]):
        self._requests = requests
        self._responses = responses
        self._on_shutdown = on_shutdown
        self._stages: dict[int, tuple[str, stages.Stage]] = {}
        self._ids = itertools.count(1)
        self._last_error = ""
        self._kept: tuple[int, pa.Buffer] | None = None  # (sequence, IPC body) of an answer too large
        # One response region: batches are processed one at a time even if calls overlap.
        self._lock = threading.Lock()

    def protocolVersion(self) -> int:
        return PROTOCOL_VERSION

    def open(self, descriptor_json: str) -> int:
        """Creates the stage a descriptor describes; returns its id (> 0)."""
        name = None
        try:
            descriptor = json.loads(descriptor_json)
            name = descriptor.get("name") if isinstance(descriptor, dict) else None
            stage = stages.create(descriptor)
        except BaseException as exc:  # noqa: BLE001 - see _engine_failure
            return self._fail(_engine_failure(exc), "open", stage_name=name)
        with self._lock:
            stage_id = next(self._ids)
            self._stages[stage_id] = (name, stage)
        log.info("opened stage %d (%s, kind %s)", stage_id, name, descriptor.get("kind"))
        return stage_id

    def process(self, stage_id: int, sequence: int) -> int:
        """Runs the stage on request batch `sequence`; returns the response body length (one
        stream per batch the stage answers). An answer the response region does not hold as it is
        stays unwritten: it is kept as a copy of the sidecar's own (the JVM then shrinks the
        request region the answer may point into) and the call returns minus the region size it
        needs, for `writeKeptAnswer` once the JVM has that growth from its shared-memory budget."""
        with self._lock:
            name = None
            self._kept = None
            try:
                name, stage = self._stage(stage_id)
                result = stage.process(self._requests.read_batch(sequence))
                answer = (result,) if isinstance(result, pa.RecordBatch) else tuple(result)
                length = streams_size(answer)
                needed = self._responses.size_for(length)
                if needed > self._responses.size:
                    self._kept = (sequence, serialize(answer))
                    return -needed
                return self._responses.write_batches(sequence, answer, length)
            except BaseException as exc:  # noqa: BLE001 - see _engine_failure
                return self._fail(_engine_failure(exc), "process", stage_id, name, sequence)

    def writeKeptAnswer(self, sequence: int, region_size: int) -> int:
        """Grows the response region to `region_size` and writes the answer `process` kept for
        `sequence`; returns its length."""
        with self._lock:
            try:
                if self._kept is None or self._kept[0] != sequence:
                    raise LookupError(f"no answer to batch {sequence} is kept"
                                      f" (kept: {None if self._kept is None else self._kept[0]})")
                body = self._kept[1]
                self._kept = None
                self._responses.resize(region_size)
                return self._responses.write_body(sequence, body)
            except BaseException as exc:  # noqa: BLE001 - see _engine_failure
                return self._fail(_engine_failure(exc), "writeKeptAnswer", sequence=sequence)

    def shrinkResponses(self) -> None:
        """The response region back at its initial size: the JVM has copied the answer out."""
        with self._lock:
            self._responses.resize(0)

    def close(self, stage_id: int) -> None:
        with self._lock:
            closed = self._stages.pop(stage_id, None)
        if closed is not None:
            close = getattr(closed[1], "close", None)
            if close is not None:
                close()  # a stage holding files (a join's spilled rows) removes them
            log.info("closed stage %d (%s)", stage_id, closed[0])

    def lastError(self) -> str:
        """The reply of the last failed call (JSON, see `errors`), then forgets it."""
        reply, self._last_error = self._last_error, ""
        return reply

    def shutdown(self) -> None:
        log.info("shutdown requested by the JVM")
        self._on_shutdown()

    def _stage(self, stage_id: int) -> tuple[str, stages.Stage]:
        if stage_id not in self._stages:
            raise LookupError(f"no open stage with id {stage_id}")
        return self._stages[stage_id]

    def _fail(self, exc: Exception, call: str, stage_id: int | None = None, stage_name: str | None = None,
              sequence: int | None = None) -> int:
        self._last_error = error_reply(exc, call, stage_id, stage_name, sequence)
        log.warning("%s failed (stage %s %s, batch %s): %s: %s", call, stage_id, stage_name or "",
                    sequence, type(exc).__name__, exc)
        return FAILED


def _engine_failure(exc: BaseException) -> BaseException:
    """`exc` if the call may answer it as a failed call. A panic in Rust code (DataFusion, our
    kernels) reaches Python as pyo3's PanicException, a BaseException: it fails the call like any
    error (else it would escape py4j's handler and leave the JVM waiting for its timeout). Only an
    interpreter exit goes on up."""
    if isinstance(exc, (KeyboardInterrupt, SystemExit)):
        raise exc
    return exc
