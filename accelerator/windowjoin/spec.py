"""A `window_join` descriptor, read and checked once when the stage opens."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.join import spec as join_spec
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import DescriptorError, parse_descriptor

KEY = keyed_state.KEY
KEY_GROUP = keyed_state.KEY_GROUP
SIDE = join_spec.SIDE
#: The window end of the row (Flink's window_end millis): with the key, the window its row joins in.
WINDOW_END = "$window_end"
#: The watermark at which stock's timer for the row's window fires (TimeWindowUtil.toEpochMillsForTimer
#: of window end - 1 in the operator's shift time zone, computed by the JVM operator).
TRIGGER = "$trigger"
LEFT, RIGHT = join_spec.LEFT, join_spec.RIGHT
TRANSPORT = (KEY, KEY_GROUP, SIDE, WINDOW_END, TRIGGER)
SEMI, ANTI = join_spec.SEMI, join_spec.ANTI
JOIN_TYPES = join_spec.JOIN_TYPES


@dataclass(frozen=True)
class WindowJoinSpec:
    name: str | None
    join_type: str
    #: An update batch (and a state row): the transport columns, then the joined row's columns,
    #: the row's own side filled and the other side's NULL.
    input_schema: pa.Schema
    #: What the join emits: the joined row, or for a SEMI or ANTI join the left input's row.
    output_schema: pa.Schema
    #: The left input's fields, then the right input's: what the condition reads.
    joined_schema: pa.Schema
    left_arity: int
    state_format: int
    fingerprint: str | None
    #: The non-equi condition's section (`column`, `plan`: accelerator.join.condition), None for none.
    condition: dict | None
    #: Per input, the positions in its row of the key fields a NULL keeps from joining (`=`).
    null_filtered: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def semi_anti(self) -> bool:
        return self.join_type in (SEMI, ANTI)

    def side_names(self, side: int) -> list[str]:
        """The joined row's fields that hold one input's row."""
        names = self.joined_schema.names
        return names[:self.left_arity] if side == LEFT else names[self.left_arity:]


def parse(descriptor: dict) -> WindowJoinSpec:
    return parse_descriptor(descriptor, "window_join", _parse)


def _parse(descriptor: dict, name: str | None) -> WindowJoinSpec:
    def refuse(reason: str) -> DescriptorError:
        return DescriptorError(f"stage {name!r}: {reason}")

    join_type = descriptor["join_type"]
    if join_type not in JOIN_TYPES:
        raise refuse(f"join type {join_type!r}; this sidecar runs {list(JOIN_TYPES)} window joins")
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    roots = [t.root for _, t in fields[2:len(TRANSPORT)]]
    if [n for n, _ in fields[:len(TRANSPORT)]] != list(TRANSPORT) or roots != ["TINYINT", "BIGINT", "BIGINT"]:
        raise refuse(f"input fields start {[n for n, _ in fields[:len(TRANSPORT)]]}, not {list(TRANSPORT)}"
                     f" ({SIDE} TINYINT, {WINDOW_END} BIGINT, {TRIGGER} BIGINT)")
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    semi_anti = join_type in (SEMI, ANTI)
    if semi_anti and "joined" not in descriptor:
        raise refuse(f"a {join_type} join emits left rows only: its descriptor names the joined row the condition"
                     " reads in 'joined'")
    joined = [(f["name"], types.parse(f["type"])) for f in descriptor["joined"]["fields"]] if semi_anti else output
    row = fields[len(TRANSPORT):]
    if [(n, t.serializable()) for n, t in row] != [(n, join_spec.nullable(t).serializable()) for n, t in joined]:
        raise refuse("an update batch carries the joined row's fields, each nullable (the other input's stay NULL):"
                     " the input fields after the transport columns must be the joined fields made nullable")
    left_arity = int(descriptor["left_arity"])
    if not 0 < left_arity < len(joined):
        raise refuse(f"left_arity {left_arity} does not split the {len(joined)} joined fields into two inputs")
    condition = descriptor.get("condition")
    if condition is not None and not {"column", "plan"} <= set(condition):
        raise refuse(f"the condition section has {sorted(condition)}, not a 'column' and its 'plan'")
    filtered = join_spec.null_filtered(descriptor.get("keys") or [], refuse)
    state = descriptor.get("state") or {}

    def schema(fields: list) -> pa.Schema:
        return pa.schema([types.to_arrow_field(n, t) for n, t in fields])

    return WindowJoinSpec(name, join_type, schema(fields), schema(output), schema(joined), left_arity,
                          int(state.get("format", 1)), state.get("fingerprint"), condition, filtered)
