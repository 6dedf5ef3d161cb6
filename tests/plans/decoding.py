"""Decoded input for stage plans, built straight from the test's JSON messages.

The sidecar's json decoder is not what these tests are about, so the `decoded` table is built
here with the json module, for the simple values the inputs hold: numbers, strings, nulls and
timestamps written as Flink's SQL format ("2026-01-01 00:00:00.666", "...Z" for TIMESTAMP_LTZ), and rows, arrays
and maps (JSON objects, entries in their order) of them (a missing field is NULL). Strings are held as the sidecar's json decoder holds them: a lone surrogate as the
'?' Flink stores for it.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal

import pyarrow as pa

from accelerator.formats import timestamps, types
from accelerator.formats.jackson_text import flink_string


#: Nanoseconds of 400 Gregorian years (146,097 days): Python's dates start at the year 1, Flink's at 0.
_CYCLE_NS = 146_097 * 86_400 * 1_000_000_000


def _timestamp_ns(text: str) -> int:
    """Nanoseconds since the epoch of Flink's SQL text, TIMESTAMP ('...') or TIMESTAMP_LTZ ('...Z')."""
    seconds, _, fraction = text.removesuffix("Z").partition(".")
    shift = 400 if seconds.startswith("0000") else 0
    whole = datetime.strptime(f"{int(seconds[:4]) + shift:04d}{seconds[4:]}", "%Y-%m-%d %H:%M:%S")
    return (int(whole.replace(tzinfo=timezone.utc).timestamp()) * 1_000_000_000 + int((fraction + "000000000")[:9])
            - shift // 400 * _CYCLE_NS)


def _column(values: list, t: types.DataType) -> pa.Array:
    arrow = types.to_arrow(t)
    if t.root in ("TIMESTAMP", types.TIMESTAMP_LTZ):
        return timestamps.from_epoch_nanos([None if v is None else _timestamp_ns(v) for v in values])
    if t.root == "ROW":
        children = [_column([None if v is None else v.get(f.name) for v in values], f.type) for f in t.fields]
        mask = pa.array([v is None for v in values], pa.bool_())
        return pa.StructArray.from_arrays(children, fields=list(arrow), mask=mask)
    if t.root in ("ARRAY", "MAP"):
        return _collection(values, t, arrow)
    if t.root in ("FLOAT", "DOUBLE"):
        values = [None if v is None else float(v) for v in values]
    if t.root in ("CHAR", "VARCHAR"):
        values = [None if v is None else flink_string(v) for v in values]
    return pa.array(values, arrow)


def _collection(values: list, t: types.DataType, arrow: pa.DataType) -> pa.Array:
    """An ARRAY (JSON array) or MAP (JSON object) column: its elements (keys, values) as one child column."""
    offsets, items = [0], []
    for v in values:
        items.extend(() if v is None else v.items() if t.root == "MAP" else v)
        offsets.append(len(items))
    offsets = pa.array(offsets, pa.int32())
    mask = pa.array([v is None for v in values], pa.bool_())
    if t.root == "ARRAY":
        return pa.ListArray.from_arrays(offsets, _column(items, t.children[0]), type=arrow, mask=mask)
    keys = _column([k for k, _ in items], t.children[0])
    return pa.MapArray.from_arrays(offsets, keys, _column([v for _, v in items], t.children[1]), type=arrow, mask=mask)


def decoded_batch(messages: list[str], schema: pa.Schema, decode_row_type: str,
                  metadata: dict[str, list]) -> pa.RecordBatch:
    """The rows of `messages` (JSON objects) as the plan's `decoded` table, metadata columns
    (by metadata key) appended from `metadata` (timestamps in epoch milliseconds, as Kafka's)."""
    row = types.parse(decode_row_type)
    objects = [json.loads(m, parse_float=Decimal) for m in messages]
    columns = [_column([o.get(f.name) for o in objects], f.type) for f in row.fields]
    for field in schema:
        if field.name in metadata:
            values = pa.array(metadata[field.name], pa.int64())
            columns.append(timestamps.from_epoch_millis(values) if field.type == timestamps.ARROW_TYPE
                           else values.cast(field.type))
    return pa.RecordBatch.from_arrays(columns, schema=schema)
