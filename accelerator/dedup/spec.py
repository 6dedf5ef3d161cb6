"""A `deduplicate` descriptor, read and checked once when the stage opens."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor
from accelerator.windowagg import spec as window_specs

KEY = window_specs.KEY
KEY_GROUP = window_specs.KEY_GROUP
PROCTIME, ROWTIME = "proctime", "rowtime"
FIRST, LAST = "first", "last"


@dataclass(frozen=True)
class DedupSpec:
    name: str | None
    input_schema: pa.Schema
    #: The deduplicated row: the input row after the transport columns, which is also the output row.
    row_schema: pa.Schema
    order: str
    keep: str
    #: The row's rowtime field (event time only).
    rowtime: str | None
    generate_update_before: bool
    generate_insert: bool
    state_format: int
    fingerprint: str | None

    @property
    def keeps_rows(self) -> bool:
        """Whether a key's state is its kept row (stock's keep-first-row on processing time keeps a flag)."""
        return not (self.order == PROCTIME and self.keep == FIRST)

    @property
    def stateless(self) -> bool:
        """Stock's keep-last-row on processing time, asked for neither inserts nor update-befores,
        emits every row as +U and keeps nothing."""
        return (self.order == PROCTIME and self.keep == LAST
                and not (self.generate_update_before or self.generate_insert))


def parse(descriptor: dict) -> DedupSpec:
    return parse_descriptor(descriptor, "deduplicate", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> DedupSpec:
    fields = keyed_state.keyed_input_fields(descriptor, refuse)
    row = fields[2:]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [(n, t.serializable()) for n, t in output] != [(n, t.serializable()) for n, t in row]:
        raise refuse("a deduplication emits its input rows: the output fields must be the input fields after"
                     f" {[KEY, KEY_GROUP]}")
    order, keep = descriptor["order"], descriptor["keep"]
    if order not in (PROCTIME, ROWTIME) or keep not in (FIRST, LAST):
        raise refuse(f"order {order!r} / keep {keep!r}; this sidecar runs {[PROCTIME, ROWTIME]} / {[FIRST, LAST]}")
    if (order, keep) == (ROWTIME, FIRST):
        raise refuse("an event-time first row is not accelerated (stock Flink 2.2.1 emits it insert-only on"
                     " watermarks)")
    rowtime = descriptor.get("rowtime")
    if order == ROWTIME:
        kinds = dict(row)
        if rowtime not in kinds or kinds[rowtime].root not in ("TIMESTAMP", types.TIMESTAMP_LTZ):
            raise refuse(f"the rowtime field {rowtime!r} is no TIMESTAMP field of the row")
    state = descriptor.get("state") or {}
    return DedupSpec(name, pa.schema([types.to_arrow_field(n, t) for n, t in fields]),
                     pa.schema([types.to_arrow_field(n, t) for n, t in row]), order, keep,
                     rowtime if order == ROWTIME else None, bool(descriptor["generate_update_before"]),
                     bool(descriptor["generate_insert"]), int(state.get("format", 1)), state.get("fingerprint"))
