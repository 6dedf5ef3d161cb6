"""An `over_agg` descriptor, read and checked once when the stage opens: anything this sidecar
would not compute exactly as Flink's `RowTimeUnboundedPrecedingOverFunctionV2` does is refused at
open."""

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
#: The rowtime of each row in epoch milliseconds (stock's `input.getLong(rowTimeIdx)`).
TIME = "$time"
FRAMES = ("rows", "range")
#: Calcite turns SUM(x) OVER w into CASE WHEN COUNT(x) > 0 THEN $SUM0(x) END: $SUM0 starts at 0.
SUM0 = "sum0"


@dataclass(frozen=True)
class OverAggSpec:
    name: str | None
    #: "rows": each row gets the aggregates after it; "range": every row of one timestamp gets
    #: the aggregates after all of them.
    frame: str
    input_schema: pa.Schema
    #: The input row (the fields after `$key`, `$key_group`, `$time`), held until emitted.
    row_schema: pa.Schema
    aggregates: tuple[Aggregate, ...]
    #: Per aggregate, whether it is a $SUM0 (a SUM whose accumulator starts at 0, not NULL).
    zero_based: tuple[bool, ...]
    #: The aggregate values after the input row, as the fire answer carries them.
    value_fields: tuple[pa.Field, ...]
    state_format: int
    fingerprint: str | None


def parse(descriptor: dict) -> OverAggSpec:
    return parse_descriptor(descriptor, "over_agg", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> OverAggSpec:
    frame = descriptor.get("frame")
    if frame not in FRAMES:
        raise refuse(f"frame {frame!r}; this sidecar runs {list(FRAMES)}")
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    if len(fields) < 3 or fields[2][0] != TIME or fields[2][1].root != "BIGINT":
        raise refuse(f"the third input field is not {TIME} BIGINT")
    input_types = dict(fields)
    row = fields[3:]
    aggregates, zero_based = [], []
    for a in descriptor["aggregates"]:
        zero = a.get("function") == SUM0
        aggregate = window_specs.parse_aggregate({**a, "function": "sum"} if zero else a, input_types, refuse)
        if zero and aggregate.acc.root == "DECIMAL":
            raise refuse("$SUM0 over DECIMAL is not run here: its sum stays NULL past 38 digits")
        if aggregate.function in window_specs.RETRACTING_FUNCTIONS or not aggregate.emit:
            raise refuse(f"{aggregate.function} (emitted: {aggregate.emit}) is no aggregate of an insert-only OVER")
        aggregates.append(aggregate)
        zero_based.append(zero)
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [n for n, _ in output[:len(row)]] != [n for n, _ in row]:
        raise refuse(f"output fields start {[n for n, _ in output[:len(row)]]}, not the input row"
                     f" {[n for n, _ in row]}")
    values = output[len(row):]
    if len(values) != len(aggregates):
        raise refuse(f"{len(values)} output values for {len(aggregates)} aggregates")
    aggregates = [window_specs.with_result(a, v, input_types, refuse) for a, v in zip(aggregates, values)]
    state = descriptor.get("state") or {}
    return OverAggSpec(name, frame, pa.schema([types.to_arrow_field(n, t) for n, t in fields]),
                       pa.schema([types.to_arrow_field(n, t) for n, t in row]), tuple(aggregates),
                       tuple(zero_based), tuple(types.to_arrow_field(n, t) for n, t in values),
                       int(state.get("format", 1)), state.get("fingerprint"))
