"""A `group_agg` descriptor, read and checked once when the stage opens: anything this sidecar
would not compute exactly as Flink's `GroupAggFunction` does is refused at open."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar.stages import DescriptorError, parse_descriptor
from accelerator.windowagg import spec as window_specs
from accelerator.windowagg.spec import Aggregate

KEY = window_specs.KEY
KEY_GROUP = window_specs.KEY_GROUP


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


def parse(descriptor: dict) -> GroupAggSpec:
    return parse_descriptor(descriptor, "group_agg", _parse)


def _parse(descriptor: dict, name: str | None) -> GroupAggSpec:
    def refuse(reason: str) -> DescriptorError:
        return DescriptorError(f"stage {name!r}: {reason}")

    fields = [(f["name"], types.parse(f["type"])) for f in descriptor["input"]["fields"]]
    if [n for n, _ in fields[:2]] != [KEY, KEY_GROUP]:
        raise refuse(f"input fields start {[n for n, _ in fields[:2]]}, not {[KEY, KEY_GROUP]}")
    aggregates = tuple(window_specs.parse_aggregate(a, dict(fields), refuse) for a in descriptor["aggregates"])
    if not all(a.emit for a in aggregates):
        raise refuse("a group aggregate emits every aggregate it derives")
    # No keys is a global aggregate: one group, Flink's empty key (its bytes in `$key` as any key's).
    keys = [k["name"] for k in descriptor.get("keys", [])]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [n for n, _ in output[:len(keys)]] != keys:
        raise refuse(f"output fields start {[n for n, _ in output[:len(keys)]]}, not the keys {keys}")
    values = output[len(keys):]
    if len(values) != len(aggregates):
        raise refuse(f"{len(values)} output values for {len(aggregates)} aggregates")
    aggregates = tuple(window_specs.with_result(a, value, dict(fields), refuse) for a, value in zip(aggregates, values))
    state = descriptor.get("state") or {}
    return GroupAggSpec(name, pa.schema([types.to_arrow_field(n, t) for n, t in fields]), aggregates,
                        tuple(types.to_arrow_field(n, t) for n, t in values),
                        bool(descriptor["generate_update_before"]), int(state.get("format", 1)),
                        state.get("fingerprint"))
