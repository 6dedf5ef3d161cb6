"""A `group_window` descriptor, read and checked once when the stage opens: anything this sidecar
would not compute exactly as stock Flink's `AggregateWindowOperator` does is refused at open."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor
from accelerator.windowagg import spec as window_specs
from accelerator.windowagg.spec import Aggregate

KEY = keyed_state.KEY
KEY_GROUP = keyed_state.KEY_GROUP
#: The time of each row in epoch milliseconds: its rowtime (stock's `inputRow.getLong(rowtimeIndex)`)
#: or, over processing time, the processing time at which it arrived (`currentProcessingTime()`).
TIME = "$time"
WINDOW_TYPES = ("tumble", "hop", "session")
#: The descriptor's `window.time`; an event-time window's descriptor leaves it out.
TIME_DOMAINS = ("event", "processing")
SUM0 = "sum0"
#: Stock's window properties over a TimeWindow: its start, its end, its rowtime (end - 1 ms), and
#: its proctime, which the planner adds to every group window and stock's aggregate handler
#: makes NULL.
WINDOW_PROPERTIES = ("window_start", "window_end", "window_time", "window_proctime")


@dataclass(frozen=True)
class GroupWindow:
    """TUMBLE: `size_ms`; HOP: `size_ms` sliding by `slide_ms`, accumulated in panes of their
    greatest common divisor (stock's `SlidingWindowAssigner`); SESSION: `gap_ms`."""

    type: str
    size_ms: int = 0
    slide_ms: int = 0
    gap_ms: int = 0
    #: Over processing time (the descriptor's `window.time` is "processing"): each row's `$time` is
    #: the processing time at which it reached the operator, and no row is late (stock's
    #: `isWindowLate` holds only for event time).
    processing_time: bool = False

    @property
    def pane_ms(self) -> int:
        from math import gcd
        return gcd(self.size_ms, self.slide_ms)


@dataclass(frozen=True)
class GroupWindowSpec:
    name: str | None
    window: GroupWindow
    input_schema: pa.Schema
    aggregates: tuple[Aggregate, ...]
    #: Per aggregate, whether it is a $SUM0 (the planner's rewrite of AVG: a SUM whose accumulator
    #: starts at 0, not NULL).
    zero_based: tuple[bool, ...]
    window_properties: tuple[str, ...]
    #: The aggregate values then the window properties (the output row without its keys), as the
    #: fire answer carries them after `$key`, `$start` and `$end`.
    output_fields: tuple[pa.Field, ...]
    state_format: int
    fingerprint: str | None


def parse(descriptor: dict) -> GroupWindowSpec:
    return parse_descriptor(descriptor, "group_window", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> GroupWindowSpec:
    w = descriptor.get("window") or {}
    kind = w.get("type")
    if kind not in WINDOW_TYPES:
        raise refuse(f"window type {kind!r}; this sidecar runs {list(WINDOW_TYPES)}")
    time = w.get("time", "event")
    if time not in TIME_DOMAINS:
        raise refuse(f"window time {time!r}; this sidecar runs {list(TIME_DOMAINS)}")
    if time == "processing" and kind == "session":
        raise refuse("a processing-time SESSION window; this sidecar runs processing-time TUMBLE and HOP windows")
    window = GroupWindow(kind, int(w.get("size_ms", 0)), int(w.get("slide_ms", 0)), int(w.get("gap_ms", 0)),
                         time == "processing")
    lengths = {"tumble": (window.size_ms,), "hop": (window.size_ms, window.slide_ms), "session": (window.gap_ms,)}
    if any(length <= 0 for length in lengths[kind]):
        raise refuse(f"the {kind.upper()} window's lengths {lengths[kind]} ms are not all positive")
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    if len(fields) < 3 or fields[2][0] != TIME or fields[2][1].root != "BIGINT":
        raise refuse(f"the third input field is not {TIME} BIGINT")
    input_types = dict(fields)
    aggregates, zero_based = [], []
    for a in descriptor["aggregates"]:
        zero = a.get("function") == SUM0
        aggregate = window_specs.parse_aggregate({**a, "function": "sum"} if zero else a, input_types, refuse)
        if zero and aggregate.acc.root == "DECIMAL":
            raise refuse("$SUM0 over DECIMAL is not run here: its sum stays NULL past 38 digits")
        if aggregate.function in window_specs.RETRACTING_FUNCTIONS or not aggregate.emit:
            raise refuse(f"{aggregate.function} (emitted: {aggregate.emit}) is no aggregate of an insert-only"
                         f" group window")
        aggregates.append(aggregate)
        zero_based.append(zero)
    properties = tuple(descriptor.get("window_properties") or ())
    for p in properties:
        if p not in WINDOW_PROPERTIES:
            raise refuse(f"window property {p!r}; this sidecar emits {list(WINDOW_PROPERTIES)}")
    keys = [k["name"] for k in descriptor.get("keys", [])]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [n for n, _ in output[:len(keys)]] != keys:
        raise refuse(f"output fields start {[n for n, _ in output[:len(keys)]]}, not the keys {keys}")
    output = output[len(keys):]
    if len(output) != len(aggregates) + len(properties):
        raise refuse(f"{len(output)} output fields for {len(aggregates)} aggregates and {len(properties)} window"
                     f" properties")
    aggregates = [window_specs.with_result(a, v, input_types, refuse) for a, v in zip(aggregates, output)]
    for (field_name, field_type), prop in zip(output[len(aggregates):], properties):
        expected = types.TIMESTAMP_LTZ if prop == "window_proctime" else "TIMESTAMP"
        if field_type.root != expected or field_type.params != (3,):
            raise refuse(f"window property {prop!r} as {field_type.serializable()}; Flink emits {expected}(3) for"
                         f" it, over event and processing time alike")
    state = descriptor.get("state") or {}
    return GroupWindowSpec(name, window, pa.schema([types.to_arrow_field(n, t) for n, t in fields]),
                           tuple(aggregates), tuple(zero_based), properties, tuple(types.to_arrow_field(n, t) for n, t in output),
                           int(state.get("format", 1)), state.get("fingerprint"))
