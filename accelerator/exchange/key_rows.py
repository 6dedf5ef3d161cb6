"""Flink's `BinaryRowData` bytes of a key projection, built for a whole Arrow batch at once.

A SQL operator's keyed shuffle keys each row by a `BinaryRowData` projection of its key columns
(the planner's generated projection, `BinaryRowDataKeySelector`); its bytes are what
`BinaryRowData.hashCode()` hashes into the row's key group, and what the accelerated stateful
operators file their state under (`$key`). Building the same bytes here lets the sidecar give each
row the key group Flink would, so both paths fill the same state.

Layout (`BinaryRowWriter`, little-endian): a header of `((arity + 63 + 8) // 64) * 8` bytes whose
first byte is the RowKind (INSERT, 0: rows stages emit inserts only) and whose bit `8 + i` marks
field `i` NULL; one 8-byte slot per field (a NULL field's slot is 0); then the variable-length part.
Fixed-width values sit in the low bytes of their slot. A string of at most 7 UTF-8 bytes is inline:
its bytes, then `0x80 | length` in the slot's last byte; a longer one is `(offset << 32) | length`
in the slot and its bytes, zero-padded to 8, in the variable part, in field order.

`key_columns` reads such rows back into key columns: an accelerated keyed operator whose stage
encodes its sink's messages itself (`sidecar/fused_encode.py`) writes each output row's key from
them, as the stock operator joins its key row with the values.

Types taken (`supported`): BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DATE, CHAR/VARCHAR and
TIMESTAMP/TIMESTAMP_LTZ of precision 0-3 (compact: the epoch milliseconds as a long); any other key
type keeps the per-row exchange.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps
from accelerator.formats.types import DataType, to_arrow

#: Flink type root -> width in bytes of the value in its slot.
_FIXED = {"BOOLEAN": 1, "TINYINT": 1, "SMALLINT": 2, "INTEGER": 4, "INT": 4, "DATE": 4, "BIGINT": 8}
_STRINGS = ("CHAR", "VARCHAR")
_TIMESTAMPS = ("TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE")
#: Longest string Flink writes inline in its slot.
_INLINE = 7


def supported(t: DataType) -> bool:
    """Whether keys of type `t` get their bytes here (others keep the per-row exchange)."""
    return (t.root in _FIXED or t.root in _STRINGS
            or (t.root in _TIMESTAMPS and t.precision <= 3))


def header_bytes(arity: int) -> int:
    """`BinaryRowData.calculateBitSetWidthInBytes`: the header with the RowKind and null bits."""
    return ((arity + 63 + 8) // 64) * 8


def binary_key_rows(columns: list[pa.Array], key_types: list[DataType]) -> pa.LargeBinaryArray:
    """The `BinaryRowData` bytes of each row's key, from the key columns in key order.

    Raises ValueError for a key type outside `supported` (the planner does not ask for one).
    """
    if len(columns) != len(key_types):
        raise ValueError(f"{len(columns)} key columns for {len(key_types)} key types")
    n = len(columns[0]) if columns else 0
    header = header_bytes(len(columns))
    fixed = header + 8 * len(columns)
    slots = np.zeros((n, fixed), dtype=np.uint8)
    var_lengths = np.zeros(n, dtype=np.int64)
    long_strings = []  # (slot, column, rows holding a long string, their lengths, where in the row)
    for i, (column, t) in enumerate(zip(columns, key_types)):
        if not supported(t):
            raise ValueError(f"key field {i} of type {t.serializable()} has no batch-exchange layout")
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        slot = header + 8 * i
        valid = _validity(column)
        if not valid.all():
            null_bit = 8 + i
            slots[~valid, null_bit >> 3] |= np.uint8(1 << (null_bit & 7))
        if t.root in _STRINGS:
            column = column.cast(pa.large_string())
            long_rows, lengths = _inline_strings(column, valid, slots, slot)
            if len(long_rows):
                long_strings.append((slot, column, long_rows, lengths, fixed + var_lengths[long_rows]))
                var_lengths[long_rows] += (lengths + 7) & ~7
            continue
        if t.root in _TIMESTAMPS:
            column, width = column.field("millis"), 8
        else:
            width = _FIXED[t.root]
        values = np.ascontiguousarray(_numbers(column, width))
        slots[:, slot:slot + width] = values.view(np.uint8).reshape(n, width)
    sizes = fixed + var_lengths
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    data = np.zeros(int(offsets[-1]), dtype=np.uint8)
    data[(offsets[:-1, None] + np.arange(fixed)[None, :]).ravel()] = slots.ravel()
    for slot, column, rows, lengths, at in long_strings:
        value_offsets, values = _string_buffers(column)
        _copy_ragged(values, value_offsets[rows], data, offsets[rows] + at, lengths)
        # The slot of a long string: (its offset in the row << 32) | its length.
        pointers = (at.astype(np.uint64) << np.uint64(32)) | lengths.astype(np.uint64)
        where = (offsets[rows][:, None] + slot + np.arange(8)[None, :]).ravel()
        data[where] = pointers.astype("<u8").view(np.uint8)
    return pa.Array.from_buffers(pa.large_binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def _validity(column: pa.Array) -> np.ndarray:
    if column.null_count == 0:
        return np.ones(len(column), dtype=bool)
    return column.is_valid().to_numpy(zero_copy_only=False)


def _numbers(column: pa.Array, width: int) -> np.ndarray:
    """The column's values as little-endian integers of `width` bytes, NULL as 0."""
    if pa.types.is_boolean(column.type):
        column = column.cast(pa.int8())
    elif pa.types.is_date32(column.type):
        column = column.view(pa.int32())
    values = column.fill_null(0).to_numpy(zero_copy_only=False)
    return values.astype(f"<i{width}", copy=False)


def _string_buffers(column: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A large_string column's value offsets (one per row, sliced) and its data bytes."""
    buffers = column.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int64)[column.offset:column.offset + len(column) + 1]
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    return offsets, data


def _inline_strings(column: pa.Array, valid: np.ndarray, slots: np.ndarray, slot: int):
    """Writes every string of at most 7 bytes into its slot; answers the rows and lengths of the others."""
    offsets, data = _string_buffers(column)
    lengths = np.where(valid, offsets[1:] - offsets[:-1], 0)
    inline = valid & (lengths <= _INLINE)
    rows = np.nonzero(inline)[0]
    if len(rows):
        padded = np.concatenate([data, np.zeros(_INLINE, np.uint8)])
        at = np.arange(_INLINE)
        picked = padded[offsets[rows][:, None] + at[None, :]]
        picked[at[None, :] >= lengths[rows][:, None]] = 0
        slots[rows, slot:slot + _INLINE] = picked
        slots[rows, slot + _INLINE] = (0x80 | lengths[rows]).astype(np.uint8)
    long_rows = np.nonzero(valid & ~inline)[0]
    return long_rows, lengths[long_rows]


def _copy_ragged(source: np.ndarray, starts: np.ndarray, target: np.ndarray, to: np.ndarray,
                 lengths: np.ndarray) -> None:
    """Copies `lengths[j]` bytes from `source[starts[j]:]` to `target[to[j]:]` for every j at once."""
    total = int(lengths.sum())
    if total == 0:
        return
    begin = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=begin[1:])
    within = np.arange(total, dtype=np.int64) - np.repeat(begin, lengths)
    target[np.repeat(to, lengths) + within] = source[np.repeat(starts, lengths) + within]


def key_columns(rows: pa.Array, key_types: list[DataType]) -> list[pa.Array]:
    """The key columns (in key order, each in the Arrow layout of its type, `types.to_arrow`) of
    Flink `BinaryRowData` key rows of `key_types`: what `binary_key_rows` built them from, or what
    Flink's key selector wrote for the rows of a keyed operator (its `$key`).

    Raises ValueError for a key type outside `supported`, or for a string key whose stored bytes
    are not UTF-8 (Flink's `BinaryStringData.toString()` would decode them with replacements).
    """
    if isinstance(rows, pa.ChunkedArray):
        rows = rows.combine_chunks()
    rows = rows.cast(pa.large_binary())
    n = len(rows)
    buffers = rows.buffers()
    offsets = np.frombuffer(buffers[1], dtype=np.int64)[rows.offset:rows.offset + n + 1]
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    starts = offsets[:-1]
    header = header_bytes(len(key_types))
    columns = []
    for i, t in enumerate(key_types):
        if not supported(t):
            raise ValueError(f"key field {i} of type {t.serializable()} has no key-row layout here")
        null_bit = 8 + i
        nulls = (data[starts + (null_bit >> 3)] & np.uint8(1 << (null_bit & 7))) != 0 if n else np.zeros(0, bool)
        slot = starts + header + 8 * i
        slot_bytes = data[slot[:, None] + np.arange(8)[None, :]] if n else np.zeros((0, 8), np.uint8)
        if t.root in _STRINGS:
            columns.append(_strings(data, starts, slot, slot_bytes, nulls, i))
            continue
        mask = nulls if nulls.any() else None
        if t.root in _TIMESTAMPS:
            millis = np.ascontiguousarray(slot_bytes).view("<i8").reshape(n)
            columns.append(timestamps.from_parts(millis, np.zeros(n, np.int32), ~nulls))
            continue
        width = _FIXED[t.root]
        values = np.ascontiguousarray(slot_bytes[:, :width]).view(f"<i{width}").reshape(n)
        arrow_type = to_arrow(t)
        if pa.types.is_boolean(arrow_type):
            values = values != 0
        column = pa.array(values, mask=mask)
        columns.append(column.view(arrow_type) if pa.types.is_date32(arrow_type) else column.cast(arrow_type))
    return columns


def _strings(data: np.ndarray, starts: np.ndarray, slot: np.ndarray, slot_bytes: np.ndarray, nulls: np.ndarray,
             field: int) -> pa.Array:
    """A string key field: inline strings from their slot, the others from the row's variable part."""
    n = len(starts)
    inline = (slot_bytes[:, _INLINE] & 0x80) != 0
    pointers = np.ascontiguousarray(slot_bytes).view("<u8").reshape(n)
    lengths = np.where(inline, slot_bytes[:, _INLINE] & 0x7F, pointers & np.uint64(0xFFFFFFFF)).astype(np.int64)
    lengths[nulls] = 0
    sources = np.where(inline, slot, starts + (pointers >> np.uint64(32)).astype(np.int64))
    out_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=out_offsets[1:])
    out = np.zeros(int(out_offsets[-1]), dtype=np.uint8)
    _copy_ragged(data, sources, out, out_offsets[:-1], lengths)
    column = pa.Array.from_buffers(pa.large_string(), n, [None, pa.py_buffer(out_offsets), pa.py_buffer(out)])
    try:
        column.validate(full=True)
    except pa.ArrowInvalid as e:
        raise ValueError(f"key field {field} holds a string whose stored bytes are not UTF-8 ({e})") from e
    if nulls.any():
        column = pc.if_else(pa.array(nulls), pa.scalar(None, pa.large_string()), column)
    return column.cast(pa.string())
