"""A `top_n` descriptor, read and checked once when the stage opens."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor
from accelerator.windowagg import spec as window_specs

KEY = window_specs.KEY
KEY_GROUP = window_specs.KEY_GROUP
#: The sort key types whose order matches stock's generated comparator (no FLOAT/DOUBLE: NaN).
SORT_ROOTS = ("CHAR", "VARCHAR", "BOOLEAN", "DECIMAL", "TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME",
              "TIMESTAMP", types.TIMESTAMP_LTZ)


@dataclass(frozen=True)
class SortField:
    name: str
    ascending: bool
    nulls_last: bool


@dataclass(frozen=True)
class TopNSpec:
    name: str | None
    input_schema: pa.Schema
    #: The ranked row: the input row after the transport columns.
    row_schema: pa.Schema
    #: The output row: the ranked row, then the row number when the query selects it.
    output_schema: pa.Schema
    sort: tuple[SortField, ...]
    rank_end: int
    output_rank_number: bool
    generate_update_before: bool
    state_format: int
    fingerprint: str | None


def parse(descriptor: dict) -> TopNSpec:
    return parse_descriptor(descriptor, "top_n", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> TopNSpec:
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    row = fields[2:]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    with_number = bool(descriptor["output_rank_number"])
    if [(n, t.serializable()) for n, t in output[:len(row)]] != [(n, t.serializable()) for n, t in row] \
            or len(output) != len(row) + with_number:
        raise refuse("a Top-N emits its input rows, then the row number when selected: the output fields must be"
                     f" the input fields after {[KEY, KEY_GROUP]}{' and one BIGINT' if with_number else ''}")
    if with_number and output[-1][1].root != "BIGINT":
        raise refuse(f"the row number field {output[-1][0]!r} is {output[-1][1].serializable()}, not BIGINT")
    kinds = dict(row)
    sort = []
    for f in descriptor["sort"]:
        if f["name"] not in kinds or kinds[f["name"]].root not in SORT_ROOTS:
            raise refuse(f"sort field {f['name']!r} is no field of the row of a type this sidecar orders as Flink"
                         f" does ({', '.join(SORT_ROOTS)})")
        sort.append(SortField(f["name"], bool(f["ascending"]), bool(f["nulls_last"])))
    rank_end = int(descriptor["rank_end"])
    if rank_end < 2:
        raise refuse(f"rank_end is {rank_end}; this stage runs Top-N with N of 2 or more")
    state = descriptor.get("state") or {}
    return TopNSpec(name, pa.schema([types.to_arrow_field(n, t) for n, t in fields]),
                    pa.schema([types.to_arrow_field(n, t) for n, t in row]),
                    pa.schema([types.to_arrow_field(n, t) for n, t in output]), tuple(sort), rank_end, with_number,
                    bool(descriptor["generate_update_before"]), int(state.get("format", 1)),
                    state.get("fingerprint"))
