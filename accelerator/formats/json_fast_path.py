"""Whole-batch json decoding in native code, for the messages it provably reads as Flink does.

`accelerator._native.decode_json` (native/src/json_decode/) walks each message once and either
vouches for it, appending its row to Arrow column buffers, or leaves it to the exact path
(`json_converters`). It vouches only for one JSON object per message whose tokens are all well
formed for Flink's parser (no leading zeros, NaN or Infinity, raw control characters or invalid
UTF-8; far from the parser's length and depth limits), whose field values are the plain forms
of their types, and in which no field is read twice before all were read. Unknown fields are
skipped whatever they hold, as Flink skips them. Among the traps it leaves to the exact path:
a float for an integer column, FLOAT/DOUBLE text that underflows or overflows, temporal text in
any but the canonical layout of the configured standard, Feb 29 of a common year (which Flink
may clamp), dates and timestamps with a signed year (outside 0000-9999), non-ASCII text read
as a number, a boolean or a date, an object or array given for a scalar.

Fields the stage never reads (`JsonOptions.read_fields`) are checked token for token as the read
ones, so the same messages are vouched, but come back as nulls: building them was most of the
work on wide rows.

Rows of scalar types and nested ROWs of them (every nested field nullable: a NOT NULL field
inside a ROW stays with the exact path, which reproduces Flink there) are taken, with or
without json.fail-on-missing-field (a message missing a field then goes to the exact path).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats import native_arrays
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType, to_arrow, to_arrow_schema

_FAST_TYPES = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR",
               "VARCHAR", "DATE", "TIME", "TIMESTAMP", TIMESTAMP_LTZ)


@dataclass(frozen=True)
class FastResult:
    """Rows for the `vouched` messages (one each, in order); `leftover` messages (None: none)
    need the exact path."""

    batch: pa.RecordBatch
    vouched: pa.Array
    leftover: pa.Array | None


def applies(row_type: DataType, options: JsonOptions) -> bool:
    return all(_fast(f.type) for f in row_type.fields)


def _fast(t: DataType) -> bool:
    """Scalars the kernel reads, and nested ROWs of them with every field nullable."""
    if t.root == "ROW":
        return all(f.type.nullable and _fast(f.type) for f in t.fields)
    return t.root in _FAST_TYPES


def _describe(row_type: DataType, read: dict | None = None, outer_read: bool = True) -> list[tuple]:
    """The row type as the kernel takes it: (name, root, params, children, read) per field. `read`
    (`JsonOptions.read_fields`, None: all) names the fields the stage reads; a NOT NULL field is
    always read, as the decoder checks it holds a value."""
    described = []
    for f in row_type.fields:
        is_read = outer_read and (read is None or f.name in read or not f.type.nullable)
        inner = read.get(f.name) if read is not None else None
        children = _describe(f.type, inner, is_read) if f.type.root == "ROW" else []
        described.append((f.name, f.type.root, list(f.type.params), children, is_read))
    return described


class FastDecoder:
    """The fast path for one row type and options: what the kernel is told and the Arrow types of
    its columns are worked out once, as a stage decodes batch after batch with them."""

    def __init__(self, row_type: DataType, options: JsonOptions):
        self._applies = applies(row_type, options) and bool(row_type.fields)
        self._description = _describe(row_type, options.read_fields)
        self._options = options
        self._arrow = [to_arrow(f.type) for f in row_type.fields]
        self._schema = to_arrow_schema(row_type)

    def decode(self, values: pa.Array) -> FastResult | None:
        """The fast path's rows, or None when it cannot take any message of this batch."""
        if not self._applies or len(values) == 0:
            return None
        options = self._options
        columns, vouched, leftover = _native.decode_json(
            native_arrays.message_buffers(values), self._description,
            options.fail_on_missing_field, options.timestamp_format == "ISO-8601", options.keep_lone_surrogates)
        vouched, leftover = np.frombuffer(vouched, dtype=np.int64), np.frombuffer(leftover, dtype=np.int64)
        if len(vouched) == 0:
            return None
        arrays = [native_arrays.column(arrow, len(vouched), column) for arrow, column in zip(self._arrow, columns)]
        batch = pa.RecordBatch.from_arrays(arrays, schema=self._schema)
        return FastResult(batch, pa.array(vouched), pa.array(leftover) if len(leftover) else None)


def decode(values: pa.Array, row_type: DataType, options: JsonOptions) -> FastResult | None:
    """The fast path's rows, or None when it cannot take any message of this batch."""
    return FastDecoder(row_type, options).decode(values)
