"""The JVM operator's side of the window_agg calls, for tests: requests are written into a shared
request region and answered through `SidecarControl.process`, the entry point the JVM calls, so the
transport-facing code (metadata, schemas, error replies) is what the tests exercise."""

from __future__ import annotations

import itertools
import json
from decimal import Decimal

import pyarrow as pa

from accelerator.formats import timestamps, types
from accelerator.sidecar.control import FAILED, SidecarControl
from accelerator.sidecar.shm import SharedRegion

LONG_MIN = -2 ** 63
#: The state budget the client sends unless told otherwise: more than any test's state.
BUDGET = 1 << 30
EMPTY = pa.schema([])


class CallFailed(Exception):
    """The sidecar answered a call with FAILED; `reply` is its structured error reply."""

    def __init__(self, reply: dict):
        super().__init__(f"{reply['error']}: {reply['reason']}")
        self.reply = reply


class Sidecar:
    """One control object between a request writer and a response reader, as in the JVM."""

    def __init__(self):
        self.requests = SharedRegion.create("request")
        self.responses = SharedRegion.create("response")
        self._sidecar_requests = SharedRegion.attach(self.requests.path)
        self._jvm_responses = SharedRegion.attach(self.responses.path)
        self.control = SidecarControl(self._sidecar_requests, self.responses, lambda: None)
        self._sequence = itertools.count(1)

    def call(self, stage_id: int, batch: pa.RecordBatch) -> pa.RecordBatch:
        n = next(self._sequence)
        self.requests.write_batch(n, batch)
        if self.control.process(stage_id, n) == FAILED:
            raise CallFailed(json.loads(self.control.lastError()))
        answer = self._jvm_responses.read_batch(n)
        # Copied out of the region, as the JVM copies what it keeps past the next call.
        return pa.ipc.read_record_batch(answer.serialize(), answer.schema)

    def open(self, descriptor: dict) -> "WindowAggClient":
        stage_id = self.control.open(json.dumps(descriptor))
        if stage_id == FAILED:
            raise CallFailed(json.loads(self.control.lastError()))
        return WindowAggClient(self, stage_id, descriptor)

    def close(self) -> None:
        for region in (self._sidecar_requests, self._jvm_responses, self.responses, self.requests):
            region.close()


class WindowAggClient:
    """The six calls of one window_agg stage, with the request metadata the operator sends."""

    def __init__(self, sidecar: Sidecar, stage_id: int, descriptor: dict):
        self.sidecar, self.stage_id, self.descriptor = sidecar, stage_id, descriptor
        self.input_schema = pa.schema([types.to_arrow_field(f["name"], types.parse(f["type"]))
                                       for f in descriptor["input"]["fields"]])

    def _call(self, call: str, batch: pa.RecordBatch | None = None, **metadata) -> pa.RecordBatch:
        batch = batch if batch is not None else pa.RecordBatch.from_arrays([], schema=EMPTY)
        meta = {b"accelerator.call": call.encode()}
        meta.update({f"accelerator.{k}".encode(): str(v).encode() for k, v in metadata.items()})
        return self.sidecar.call(self.stage_id, batch.replace_schema_metadata(meta))

    def rows(self, rows: list[dict]) -> pa.RecordBatch:
        """Input rows as dicts of the input fields (`$key` may be a str; DECIMALs as str)."""
        fixed = []
        for row in rows:
            row = dict(row)
            if isinstance(row.get("$key"), str):
                row["$key"] = row["$key"].encode()
            for field in self.input_schema:
                if pa.types.is_decimal(field.type) and isinstance(row.get(field.name), (str, int)):
                    row[field.name] = Decimal(row[field.name])
            fixed.append(row)
        return pa.RecordBatch.from_pylist(fixed, schema=self.input_schema)

    def update(self, rows: list[dict] | pa.RecordBatch, progress: int = LONG_MIN, budget: int = BUDGET) -> int:
        """Sends rows; returns how many were dropped as late."""
        batch = rows if isinstance(rows, pa.RecordBatch) else self.rows(rows)
        answer = self._call("update", batch, progress=progress, state_budget=budget)
        return int(answer.schema.metadata[b"accelerator.dropped"])

    def flush(self, timer_watermark: int = LONG_MIN) -> list[tuple[bytes, int]]:
        answer = self._call("flush", timer_watermark=timer_watermark)
        return list(zip(answer.column("$key").to_pylist(), answer.column("$window_end").to_pylist()))

    def fire_batch(self, watermark: int) -> pa.RecordBatch:
        return self._call("fire", watermark=watermark)

    def fire(self, watermark: int) -> list[dict]:
        """The fired windows as dicts; timestamps as epoch milliseconds, keys decoded."""
        return self.rows_of(self.fire_batch(watermark))

    @staticmethod
    def rows_of(answer: pa.RecordBatch) -> list[dict]:
        """A fire answer's windows as dicts; timestamps as epoch milliseconds, keys decoded."""
        out = []
        for row in answer.to_pylist():
            row["$key"] = row["$key"].decode()
            for name, value in row.items():
                if isinstance(value, dict) and set(value) == {timestamps.MILLIS, timestamps.NANOS}:
                    assert value[timestamps.NANOS] == 0
                    row[name] = value[timestamps.MILLIS]
            out.append(row)
        return out

    def timers(self, queue: str, key_groups: tuple[int, int] = (0, 127)) -> None:
        """Names the timer queue the stage keeps (heap, rocksdb, or flink for none)."""
        self._call("timers", timers=queue, key_group_start=key_groups[0], key_group_end=key_groups[1])

    def snapshot(self) -> pa.RecordBatch:
        return self._call("snapshot")

    def restore(self, state: pa.RecordBatch, key_groups: tuple[int, int], **metadata) -> None:
        meta = {"state_format": (state.schema.metadata or {}).get(b"accelerator.state_format", b"1").decode(),
                "state_budget": BUDGET}
        fingerprint = (state.schema.metadata or {}).get(b"accelerator.state_fingerprint")
        if fingerprint is not None:
            meta["state_fingerprint"] = fingerprint.decode()
        meta.update(metadata)
        self._call("restore", state, key_group_start=key_groups[0], key_group_end=key_groups[1], **meta)


def descriptor(aggregates: list[dict], phase: str = "single", size_ms: int = 10_000, offset_ms: int = 0,
               zone_offset_ms: int = 0, arguments: dict[str, str] | None = None,
               properties: tuple[str, ...] = ("window_start", "window_end"), ltz: bool = False,
               outputs: list[dict] | None = None, slide_ms: int | None = None, step_ms: int | None = None) -> dict:
    """A window_agg descriptor as §2 of the design shows it. `arguments`: input column -> type;
    `aggregates`: function, arg, acc (emit defaults to true; result, the output type, to acc); outputs default to one per emitted
    aggregate (named after the function and its index) then the window properties. A `slide_ms`
    makes it a HOP window, a `step_ms` a CUMULATE window of max size `size_ms`."""
    arguments = arguments or {}
    fields = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"},
              {"name": "$time", "type": "BIGINT NOT NULL"}]
    fields += [{"name": n, "type": t} for n, t in arguments.items()]
    aggregates = [{"emit": True, **a} for a in aggregates]
    if outputs is None:
        outputs = [{"name": f"{a['function']}{i}", "type": a.get("result", a["acc"])}
                   for i, a in enumerate(aggregates) if a["emit"]]
        for p in properties:
            kind = "TIMESTAMP_LTZ(3)" if ltz and p == "window_time" else "TIMESTAMP(3)"
            kind = "TIMESTAMP(3) WITH LOCAL TIME ZONE" if kind == "TIMESTAMP_LTZ(3)" else kind
            outputs.append({"name": p, "type": f"{kind} NOT NULL"})
    window = {"type": "tumble", "size_ms": size_ms}
    if slide_ms is not None:
        window = {"type": "hop", "size_ms": size_ms, "slide_ms": slide_ms}
    if step_ms is not None:
        window = {"type": "cumulate", "size_ms": size_ms, "step_ms": step_ms}
    return {"protocol": 1, "kind": "window_agg", "name": "test-window-agg", "phase": phase,
            "window": {**window, "offset_ms": offset_ms,
                       "time_type": "TIMESTAMP(3) WITH LOCAL TIME ZONE" if ltz else "TIMESTAMP(3)",
                       "zone": "UTC", "zone_offset_ms": zone_offset_ms},
            "input": {"fields": fields}, "aggregates": aggregates, "window_properties": list(properties),
            "output": {"fields": outputs},
            "state": {"format": 1, "fingerprint": "f" * 64}}
