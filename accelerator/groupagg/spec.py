"""A `group_agg` descriptor, read and checked once when the stage opens: anything this sidecar
would not compute exactly as Flink's `GroupAggFunction` does is refused at open."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.groupagg import distinct as distinct_values
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor
from accelerator.windowagg import spec as window_specs
from accelerator.windowagg.spec import Aggregate

KEY = window_specs.KEY
KEY_GROUP = window_specs.KEY_GROUP
#: The input RowKind byte of each row, the third input field when the input is updating.
ROW_KIND = "$kind"


#: The functions a DISTINCT aggregate runs (its accumulator is the function's own).
DISTINCT_FUNCTIONS = ("count", "sum", "min", "max", "avg")


@dataclass(frozen=True)
class Distinct:
    """The DISTINCT aggregates over one argument (stock's `DistinctInfo`): the argument column and
    the aggregates' indices in call order; bit j of a value's mask is `aggregates[j]`'s."""

    arg: str
    aggregates: tuple[int, ...]


@dataclass(frozen=True)
class GroupAggSpec:
    name: str | None
    input_schema: pa.Schema
    aggregates: tuple[Aggregate, ...]
    #: The output row without its keys: one value per aggregate, as the update answer carries them.
    output_fields: tuple[pa.Field, ...]
    generate_update_before: bool
    state_format: int
    fingerprint: str | None
    #: Over an updating input: the index of the COUNT(*) counting the key's rows (stock's
    #: `RecordCounter`; the planner's hidden one unless the query has one), else None.
    record_counter: int | None = None
    #: The DISTINCT aggregates, per argument in the order of their first aggregate.
    distinct: tuple[Distinct, ...] = ()

    @property
    def updating(self) -> bool:
        """Whether the input carries retractions (`$kind` per row)."""
        return self.record_counter is not None


def parse(descriptor: dict) -> GroupAggSpec:
    return parse_descriptor(descriptor, "group_agg", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> GroupAggSpec:
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    aggregates = tuple(window_specs.parse_aggregate(a, dict(fields), refuse) for a in descriptor["aggregates"])
    counter = descriptor.get("record_counter")
    if (counter is not None) != (len(fields) > 2 and fields[2][0] == ROW_KIND):
        raise refuse(f"a record_counter ({counter}) goes with a {ROW_KIND!r} third input field, and only with it")
    if counter is not None and not (0 <= counter < len(aggregates) and aggregates[counter].function == "count1"
                                    and aggregates[counter].filter is None):
        raise refuse(f"record_counter {counter} is no COUNT(*) without FILTER among the aggregates")
    if counter is None and any(a.function in window_specs.RETRACTING_FUNCTIONS for a in aggregates):
        raise refuse(f"{list(window_specs.RETRACTING_FUNCTIONS)} run only over an updating input")
    if counter is not None and any(a.function in ("sum", "min", "max") for a in aggregates):
        raise refuse("over an updating input Flink runs SUM as sum_retract and MIN/MAX with a map of values;"
                     " an aggregate here has no retraction")
    hidden = [i for i, a in enumerate(aggregates) if not a.emit]
    if hidden and hidden != [counter]:
        raise refuse("a group aggregate emits every aggregate it derives but the record counter it inserts")
    # No keys is a global aggregate: one group, Flink's empty key (its bytes in `$key` as any key's).
    keys = [k["name"] for k in descriptor.get("keys", [])]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [n for n, _ in output[:len(keys)]] != keys:
        raise refuse(f"output fields start {[n for n, _ in output[:len(keys)]]}, not the keys {keys}")
    values = output[len(keys):]
    emitted = [a for a in aggregates if a.emit]
    if len(values) != len(emitted):
        raise refuse(f"{len(values)} output values for {len(emitted)} emitted aggregates")
    results = iter(values)
    aggregates = tuple(window_specs.with_result(a, next(results), dict(fields), refuse) if a.emit else a
                       for a in aggregates)
    distinct = _distinct(descriptor["aggregates"], aggregates, dict(fields), counter, refuse)
    state = descriptor.get("state") or {}
    return GroupAggSpec(name, pa.schema([types.to_arrow_field(n, t) for n, t in fields]), aggregates,
                        tuple(types.to_arrow_field(n, t) for n, t in values),
                        bool(descriptor["generate_update_before"]), int(state.get("format", 1)),
                        state.get("fingerprint"), counter, distinct)


def _distinct(described: list[dict], aggregates: tuple[Aggregate, ...], input_types: dict[str, types.DataType],
              counter: int | None, refuse) -> tuple[Distinct, ...]:
    """The aggregates marked `"distinct": true`, grouped by argument as stock's `DistinctInfo`s."""
    by_arg: dict[str, list[int]] = {}
    for i, (a, aggregate) in enumerate(zip(described, aggregates)):
        if not a.get("distinct", False):
            continue
        if aggregate.function not in DISTINCT_FUNCTIONS:
            raise refuse(f"a DISTINCT {aggregate.function}; this sidecar runs DISTINCT {list(DISTINCT_FUNCTIONS)}")
        if counter is not None:
            raise refuse(f"DISTINCT {aggregate.function}({aggregate.arg}) over an updating input; stock Flink"
                         " counts each value's rows there, which this sidecar does not reproduce")
        root = input_types[aggregate.arg].root
        if root not in distinct_values.VALUE_ROOTS:
            raise refuse(f"DISTINCT {aggregate.function}({aggregate.arg}) over {root}; this sidecar tells apart"
                         f" values of {list(distinct_values.VALUE_ROOTS)}")
        by_arg.setdefault(aggregate.arg, []).append(i)
    for arg, indices in by_arg.items():
        if len(indices) > distinct_values.MAX_AGGREGATES:
            raise refuse(f"{len(indices)} DISTINCT aggregates over {arg!r}; this sidecar keeps at most"
                         f" {distinct_values.MAX_AGGREGATES} per argument")
    return tuple(Distinct(arg, tuple(indices)) for arg, indices in by_arg.items())
