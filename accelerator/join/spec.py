"""A `join` descriptor, read and checked once when the stage opens."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import DescriptorError, parse_descriptor

KEY = keyed_state.KEY
KEY_GROUP = keyed_state.KEY_GROUP
#: The input a row came from: LEFT or RIGHT.
SIDE = "$side"
#: A row's binary form as Flink's RowDataSerializer writes it (RowKind INSERT): RocksDB orders a
#: key's rows by these bytes, and equal bytes are the same row.
ORDER = "$order"
LEFT, RIGHT = 0, 1
TRANSPORT = (KEY, KEY_GROUP, SIDE, ORDER)
#: The join types this sidecar runs, each with which inputs are outer (null-padded when unmatched).
OUTER_SIDES = {"INNER": (False, False), "LEFT": (True, False), "RIGHT": (False, True), "FULL": (True, True)}
#: The join types stock runs with StreamingSemiAntiJoinOperator: they emit left rows only (`semi_anti`).
SEMI, ANTI = "SEMI", "ANTI"
JOIN_TYPES = tuple(OUTER_SIDES) + (SEMI, ANTI)
#: The `state.backend.type`s whose order of a key's rows the stage reproduces: the hashmap
#: backend's per-key java.util.HashMap (`hashmap_backend`), RocksDB's serialized bytes (`matches`).
HASHMAP, ROCKSDB = "hashmap", "rocksdb"
BACKENDS = (HASHMAP, ROCKSDB)
#: The descriptor's flag for Flink 1.20's order of an outer join's rows (`JoinSpec.retractions_before_joins`).
RETRACTIONS_BEFORE_JOINS = "retractions_before_joins"


@dataclass(frozen=True)
class JoinSpec:
    name: str | None
    join_type: str
    #: An update batch: the transport columns, then the joined row's columns, the side's own filled.
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
    #: The job's state backend (`state.backend`), one of BACKENDS.
    backend: str
    #: The non-equi condition's section (`column`, `plan`: accelerator.join.condition), None for an equi-join.
    condition: dict | None = None
    #: Per input (LEFT, RIGHT), whether it is an outer side (stock's leftIsOuter, rightIsOuter).
    outer: tuple[bool, bool] = (False, False)
    #: Per input, the positions in its row of the key fields a NULL keeps from joining (`=`, not
    #: `IS NOT DISTINCT FROM`): the operator sends such rows only where stock emits them unmatched
    #: (an outer side, an ANTI join's left input).
    null_filtered: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    #: Whether an input row's associated records retract all their null-padded rows (-D) before
    #: the first join (+I), as Flink 1.20's StreamingJoinOperator does (it collects the associated
    #: records first); 2.x's retracts each one right before its join (`outer`).
    retractions_before_joins: bool = False

    @property
    def outer_join(self) -> bool:
        return any(self.outer)

    @property
    def semi_anti(self) -> bool:
        """Whether stock runs StreamingSemiAntiJoinOperator: left rows out, by whether they have a match."""
        return self.join_type in (SEMI, ANTI)

    def side_schema(self, side: int) -> pa.Schema:
        """The joined row's fields that hold one input's row."""
        fields = list(self.joined_schema)
        return pa.schema(fields[:self.left_arity] if side == LEFT else fields[self.left_arity:])


def parse(descriptor: dict) -> JoinSpec:
    return parse_descriptor(descriptor, "join", _parse)


def _parse(descriptor: dict, name: str | None) -> JoinSpec:
    def refuse(reason: str) -> DescriptorError:
        return DescriptorError(f"stage {name!r}: {reason}")

    join_type = descriptor["join_type"]
    if join_type not in JOIN_TYPES:
        raise refuse(f"join type {join_type!r}; this sidecar runs {list(JOIN_TYPES)} joins")
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    if [n for n, _ in fields[:len(TRANSPORT)]] != list(TRANSPORT) or fields[2][1].root != "TINYINT" \
            or fields[3][1].root != "VARBINARY":
        raise refuse(f"input fields start {[n for n, _ in fields[:len(TRANSPORT)]]}, not {list(TRANSPORT)}"
                     f" ({SIDE} TINYINT, {ORDER} VARBINARY)")
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    semi_anti = join_type in (SEMI, ANTI)
    if semi_anti and "joined" not in descriptor:
        raise refuse(f"a {join_type} join emits left rows only: its descriptor names the joined row the condition"
                     " reads and the state keeps (left input's fields, then the right input's) in 'joined'")
    joined = [(f["name"], types.parse(f["type"])) for f in descriptor["joined"]["fields"]] if semi_anti else output
    row = fields[len(TRANSPORT):]
    if [(n, t.serializable()) for n, t in row] != [(n, nullable(t).serializable()) for n, t in joined]:
        raise refuse("an update batch carries the joined row's fields, each nullable (the other input's stay NULL):"
                     " the input fields after the transport columns must be the joined fields made nullable")
    left_arity = int(descriptor["left_arity"])
    if not 0 < left_arity < len(joined):
        raise refuse(f"left_arity {left_arity} does not split the {len(joined)} joined fields into two inputs")
    if semi_anti and [(n, t.serializable()) for n, t in output] != \
            [(n, t.serializable()) for n, t in joined[:left_arity]]:
        raise refuse(f"a {join_type} join's output fields must be the left input's, the joined row's first {left_arity}")
    condition = descriptor.get("condition")
    if condition is not None and not {"column", "plan"} <= set(condition):
        raise refuse(f"the condition section has {sorted(condition)}, not a 'column' and its 'plan'")
    outer = OUTER_SIDES.get(join_type, (False, False))
    filtered = null_filtered(descriptor.get("keys") or [], refuse) if any(outer) or semi_anti else ((), ())
    retractions_before_joins = descriptor.get(RETRACTIONS_BEFORE_JOINS, False)
    if not isinstance(retractions_before_joins, bool):
        raise refuse(f"{RETRACTIONS_BEFORE_JOINS} is {retractions_before_joins!r}, not true or false")
    state = descriptor.get("state") or {}
    backend = state.get("backend")
    if backend not in BACKENDS:
        raise refuse(f"state.backend is {backend!r}; this sidecar reproduces the order of a key's joined rows on"
                     f" the state backends {list(BACKENDS)}")

    def schema(row: list) -> pa.Schema:
        return pa.schema([types.to_arrow_field(n, t) for n, t in row])

    return JoinSpec(name, join_type, schema(fields), schema(output), schema(joined), left_arity,
                    int(state.get("format", 1)), state.get("fingerprint"), backend, condition, outer, filtered,
                    retractions_before_joins)


def null_filtered(keys: list[dict], refuse) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per input, the row positions (`left_index`, `right_index`) of the keys with `filter_nulls`."""
    if any("left_index" not in k or "right_index" not in k for k in keys):
        raise refuse("an outer, semi or anti join's keys name each key field's position in its input (left_index,"
                     " right_index), so a row with a NULL key is emitted unmatched and joins nothing; these keys do not")
    return (tuple(int(k["left_index"]) for k in keys if k.get("filter_nulls")),
            tuple(int(k["right_index"]) for k in keys if k.get("filter_nulls")))


def nullable(t: types.DataType) -> types.DataType:
    return types.DataType(t.root, True, t.params, t.children, t.fields)
