"""The sections a regular join's (`join`) and a window join's (`window_join`) descriptors share,
read and checked in one place: the planner writes them the same way for both (JoinExport), so the
two specs differ only in their transport columns and what each family adds (the regular join's
state backend and outer sides, the window join's window columns)."""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse

#: The input a row came from: LEFT or RIGHT.
SIDE = "$side"
LEFT, RIGHT = 0, 1
#: The join types the joins run, each with which inputs are outer (null-padded when unmatched).
OUTER_SIDES = {"INNER": (False, False), "LEFT": (True, False), "RIGHT": (False, True), "FULL": (True, True)}
#: The join types that emit left rows only, by whether they have a match (`semi_anti`).
SEMI, ANTI = "SEMI", "ANTI"
JOIN_TYPES = tuple(OUTER_SIDES) + (SEMI, ANTI)


@dataclasses.dataclass(frozen=True)
class JoinSections:
    name: str | None
    join_type: str
    #: An update batch: the transport columns, then the joined row's columns, the row's own side
    #: filled and the other side's NULL.
    input_schema: pa.Schema
    #: What the join emits: the joined row, or for a SEMI or ANTI join the left input's row.
    output_schema: pa.Schema
    #: The left input's fields, then the right input's: the pairs the condition reads and the
    #: rows the state keeps (the output schema, but for a SEMI or ANTI join).
    joined_schema: pa.Schema
    #: How many of the joined row's fields are the left input's.
    left_arity: int
    state_format: int
    fingerprint: str | None
    #: The non-equi condition's section (`column`, `plan`: accelerator.join.condition), None for an equi-join.
    condition: dict | None
    #: Per input (LEFT, RIGHT), the positions in its row of the key fields a NULL keeps from
    #: joining (`=`, not `IS NOT DISTINCT FROM`; `null_filtered` reads them from the keys).
    null_filtered: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def semi_anti(self) -> bool:
        """Whether the join emits left rows only, by whether they have a match."""
        return self.join_type in (SEMI, ANTI)

    def side_schema(self, side: int) -> pa.Schema:
        """The joined row's fields that hold one input's row."""
        fields = list(self.joined_schema)
        return pa.schema(fields[:self.left_arity] if side == LEFT else fields[self.left_arity:])

    def null_keyed(self, rows: pa.RecordBatch | pa.Table, sides: np.ndarray) -> np.ndarray:
        """Per row of `rows` (joined rows from the input `sides` says), whether its key has a NULL
        where the join compares with `=`: stock's null filter rejects every pair of it."""
        out = np.zeros(rows.num_rows, dtype=bool)
        for side in (LEFT, RIGHT):
            names = self.side_schema(side).names
            for position in self.null_filtered[side]:
                out |= (sides == side) & rows.column(names[position]).is_null().to_numpy(zero_copy_only=False)
        return out

    def kwargs(self) -> dict:
        """These sections as keyword arguments, for a join family's spec that adds its own."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(JoinSections)}


def read(descriptor: dict, name: str | None, refuse: Refuse, transport: dict[str, str], joins: str,
         joined_holds: str, filters_nulls: Callable[[str], bool]) -> JoinSections:
    """The shared sections of a descriptor whose input starts with `$key`, `$key_group` and then
    `transport` (column name: its type's root), in that order. `joins` names the family in the
    refusal of a join type, `joined_holds` what a SEMI or ANTI join's `joined` section is for (its
    output must be the joined row's left input fields, types and nullability included);
    `filters_nulls(join type)` whether the stage applies the keys' NULL filters (`null_keyed`) to
    such a join or the operator leaves out the rows they reject before sending them."""
    join_type = descriptor["join_type"]
    if join_type not in JOIN_TYPES:
        raise refuse(f"join type {join_type!r}; this sidecar runs {list(JOIN_TYPES)} {joins}")
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    names = [keyed_state.KEY, keyed_state.KEY_GROUP] + list(transport)
    start = [n for n, _ in fields[:len(names)]]
    if start != names or [t.root for _, t in fields[2:len(names)]] != list(transport.values()):
        raise refuse(f"input fields start {start}, not {names}"
                     f" ({', '.join(f'{n} {root}' for n, root in transport.items())})")
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    semi_anti = join_type in (SEMI, ANTI)
    if semi_anti and "joined" not in descriptor:
        raise refuse(f"a {join_type} join emits left rows only: its descriptor names the joined row {joined_holds}"
                     " in 'joined'")
    joined = [(f["name"], types.parse(f["type"])) for f in descriptor["joined"]["fields"]] if semi_anti else output
    row = fields[len(names):]
    if [(n, t.serializable()) for n, t in row] != [(n, nullable(t).serializable()) for n, t in joined]:
        raise refuse("an update batch carries the joined row's fields, each nullable (the other input's stay NULL):"
                     " the input fields after the transport columns must be the joined fields made nullable")
    left_arity = int(descriptor["left_arity"])
    if not 0 < left_arity < len(joined):
        raise refuse(f"left_arity {left_arity} does not split the {len(joined)} joined fields into two inputs")
    # Both families' stages emit a SEMI or ANTI join's left row as it is.
    if semi_anti and [(n, t.serializable()) for n, t in output] != \
            [(n, t.serializable()) for n, t in joined[:left_arity]]:
        raise refuse(f"a {join_type} join's output fields must be the left input's, the joined row's first"
                     f" {left_arity}")
    condition = descriptor.get("condition")
    if condition is not None and not {"column", "plan"} <= set(condition):
        raise refuse(f"the condition section has {sorted(condition)}, not a 'column' and its 'plan'")
    filtered = null_filtered(descriptor.get("keys") or [], refuse) if filters_nulls(join_type) else ((), ())
    state = descriptor.get("state") or {}

    def schema(row: list) -> pa.Schema:
        return pa.schema([types.to_arrow_field(n, t) for n, t in row])

    return JoinSections(name, join_type, schema(fields), schema(output), schema(joined), left_arity,
                        int(state.get("format", 1)), state.get("fingerprint"), condition, filtered)


def null_filtered(keys: list[dict], refuse: Refuse) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per input, the row positions (`left_index`, `right_index`) of the keys with `filter_nulls`."""
    if any("left_index" not in k or "right_index" not in k for k in keys):
        raise refuse("an outer, semi or anti join's keys name each key field's position in its input (left_index,"
                     " right_index), so a row with a NULL key is emitted unmatched and joins nothing; these keys do not")
    return (tuple(int(k["left_index"]) for k in keys if k.get("filter_nulls")),
            tuple(int(k["right_index"]) for k in keys if k.get("filter_nulls")))


def nullable(t: types.DataType) -> types.DataType:
    return types.DataType(t.root, True, t.params, t.children, t.fields)
