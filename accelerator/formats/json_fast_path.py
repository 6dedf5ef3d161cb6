"""Whole-batch json decoding with pyarrow's reader, for the messages it provably reads as Flink does.

pyarrow parses all messages of a batch in one call, about four times faster than any per-record
Python. It is used only for rows of scalar types and of nested ROWs of them (every nested field
nullable), without json.fail-on-missing-field (pyarrow
cannot tell a missing field from a null one), and only for messages on which it cannot differ
from Flink: each is one JSON object on one line, with no control characters and no NaN/Infinity
text (pyarrow accepts those tokens, Flink does not). Everything pyarrow would read differently it
refuses instead (a string for a number, a float for an integer, a rounded decimal, a duplicate
key, a lone surrogate escape), which sends that part of the batch to the exact path; a whole number too large
for its DECIMAL column, which pyarrow lets through, is caught here. Temporal values are read
as text and parsed here only in their canonical layout; integers out of their column's range,
FLOAT values that would round twice, and other odd text go to the exact path one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pa_json

from accelerator.formats.json_lexer import MAX_NAME_LENGTH
from accelerator.formats.json_lexer import MAX_NUMBER_LENGTH as _MAX_NUMBER_LENGTH
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType, to_arrow

_INTEGER_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32}
_TEXT_READ = ("DATE", "TIME", "TIMESTAMP", TIMESTAMP_LTZ)
_FAST_TYPES = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR",
               "VARCHAR") + _TEXT_READ
#: The canonical layouts taken here: years 1678-2261 (every instant fits int64 nanoseconds), days
#: that exist in every year (Feb 29, which Flink may clamp, goes to the exact path), 00-23 hours.
_YEAR = r"(?:1(?:6(?:7[89]|[89]\d)|[7-9]\d\d)|2(?:[01]\d\d|2(?:[0-5]\d|6[01])))"
_DATE = (_YEAR + r"-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)"
         r"|(?:0[13578]|1[02])-31)")
_TIME = r"(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d"
_FRACTION = r"(?:\.\d{1,9})?"


@dataclass(frozen=True)
class FastResult:
    """Rows for the `vouched` messages (one each, in order); `leftover` messages (None: none)
    need the exact path."""

    batch: pa.RecordBatch
    vouched: pa.Array
    leftover: pa.Array | None


def applies(row_type: DataType, options: JsonOptions) -> bool:
    return not options.fail_on_missing_field and all(_fast(f.type) for f in row_type.fields)


def _fast(t: DataType) -> bool:
    """Scalars pyarrow reads as Flink does, and nested ROWs of them: pyarrow gives `null` and a
    missing field a null row and `{}` a row of nulls, as Flink does, and refuses a non-object.
    A NOT NULL field inside a ROW stays with the exact path, which reproduces Flink there."""
    if t.root == "ROW":
        return all(f.type.nullable and _fast(f.type) for f in t.fields)
    return t.root in _FAST_TYPES


def decode(values: pa.Array, row_type: DataType, options: JsonOptions) -> FastResult | None:
    """The fast path's rows, or None when it cannot take any message of this batch."""
    if not applies(row_type, options) or len(values) == 0 or not row_type.fields:
        return None
    values = values.cast(pa.large_binary()) if values.type != pa.large_binary() else values
    parsed = _parse_in_parts(values, pc.indices_nonzero(pc.fill_null(_plain(values), False)).cast(pa.int64()),
                             row_type)
    if not parsed:
        return None
    candidates = pa.concat_arrays([indices for indices, _ in parsed])
    table = pa.concat_tables([t for _, t in parsed])
    columns, odd = [], pa.array([False] * len(candidates))
    for f in row_type.fields:
        column, column_odd = _column(table.column(f.name).combine_chunks(), f.type, options)
        columns.append(column)
        odd = pc.or_(odd, column_odd)
    good = pc.invert(odd)
    schema = pa.schema([pa.field(f.name, to_arrow(f.type), nullable=f.type.nullable) for f in row_type.fields])
    batch = pa.RecordBatch.from_arrays(columns, names=schema.names).filter(good)
    batch = pa.RecordBatch.from_arrays(batch.columns, schema=schema)
    vouched = candidates.filter(good)
    if len(vouched) == len(values):
        return FastResult(batch, vouched, None)
    leftover = pc.indices_nonzero(pc.invert(pc.is_in(pa.array(range(len(values)), pa.int64()), value_set=vouched)))
    return FastResult(batch, vouched, leftover)


#: A part of the batch that pyarrow refuses is split in two and retried down to this size, so
#: one odd message sends only its neighbourhood, not the whole batch, to the exact path.
_SMALLEST_PART = 512


def _parse_in_parts(values: pa.Array, indices: pa.Array, row_type: DataType) -> list[tuple[pa.Array, pa.Table]]:
    """(message indices, their rows) for each part of `indices` that pyarrow reads as one row each."""
    if len(indices) == 0:
        return []
    text = values if len(indices) == len(values) else values.take(indices)
    try:
        text.cast(pa.large_string())  # pyarrow must not see invalid UTF-8 that Flink would reject
        table = _parse(text, row_type)
        if table.num_rows == len(text):
            return [(indices, table)]
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        pass
    if len(indices) <= _SMALLEST_PART:
        return []
    half = len(indices) // 2
    return (_parse_in_parts(values, indices.slice(0, half), row_type)
            + _parse_in_parts(values, indices.slice(half), row_type))


def _plain(values: pa.Array) -> pa.Array:
    """Messages that are one JSON object from the first byte to the last and have no NaN or
    Infinity text. A message with a line break, or with more than one value, makes pyarrow fail
    or count more rows than messages, and the batch then goes to the exact path."""
    whole = pc.and_(pc.starts_with(values, b"{"), pc.ends_with(values, b"}"))
    if _mentions_non_numbers(values):  # rare: only then look message by message
        standard = pc.invert(pc.or_(pc.match_substring(values, b"NaN"), pc.match_substring(values, b"Inf")))
        plain = pc.and_(whole, standard)
    else:
        plain = whole
    # Field names over Flink's parser's limit fail there and pyarrow reads them: messages that could
    # hold one go to the exact path (so do strings over its limit, which need even longer messages).
    lengths = pc.binary_length(values)
    plain = pc.and_(plain, pc.less_equal(lengths, MAX_NAME_LENGTH))
    long = pc.greater(lengths, _MAX_NUMBER_LENGTH)
    if pc.any(long).as_py():  # Flink refuses numbers longer than this; pyarrow reads them
        huge_number = pc.match_substring_regex(values, "[-+0-9.eE]{%d}[-+0-9.eE]" % _MAX_NUMBER_LENGTH)
        plain = pc.and_(plain, pc.invert(pc.and_(long, huge_number)))
    return plain


def _mentions_non_numbers(values: pa.Array) -> bool:
    """Whether any message holds NaN or Inf text: one search over the batch's bytes, a few times
    cheaper than a search per message."""
    offsets, data = values.buffers()[1:3]
    if data is None:
        return False
    width = 8 if pa.types.is_large_binary(values.type) else 4
    start = int.from_bytes(offsets.slice(values.offset * width, width).to_pybytes(), "little", signed=True)
    end = int.from_bytes(offsets.slice((values.offset + len(values)) * width, width).to_pybytes(), "little",
                         signed=True)
    text = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
    return _contains(text, b"NaN") or _contains(text, b"Inf")


def _contains(text: np.ndarray, needle: bytes) -> bool:
    """Whether `needle` occurs in `text` (vectorized: candidates by first byte, then the rest)."""
    candidates = np.flatnonzero(text[: len(text) - len(needle) + 1] == needle[0])
    for i, byte in enumerate(needle[1:], start=1):
        if len(candidates) == 0:
            return False
        candidates = candidates[text[candidates + i] == byte]
    return len(candidates) > 0


def _parse(text: pa.Array, row_type: DataType) -> pa.Table:
    data = pc.binary_join(pa.LargeListArray.from_arrays([0, len(text)], text), pa.scalar(b"\n", pa.large_binary()))
    buffer = data[0].as_buffer() if hasattr(data[0], "as_buffer") else pa.py_buffer(data[0].as_py())
    schema = pa.schema([pa.field(f.name, _read_type(f.type)) for f in row_type.fields])
    return pa_json.read_json(
        pa.BufferReader(buffer),
        read_options=pa_json.ReadOptions(use_threads=False, block_size=max(1 << 20, buffer.size + 1)),
        parse_options=pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"))


def _read_type(t: DataType) -> pa.DataType:
    if t.root == "ROW":
        return pa.struct([pa.field(f.name, _read_type(f.type)) for f in t.fields])
    if t.root in _INTEGER_BITS:
        return pa.int64()
    if t.root == "FLOAT":
        return pa.float64()
    if t.root in _TEXT_READ:
        return pa.string()
    return to_arrow(t)


def _column(arr: pa.Array, t: DataType, options: JsonOptions) -> tuple[pa.Array, pa.Array]:
    """(the column in Flink's values, where the exact path must decide instead)."""
    root = t.root
    if root == "ROW":
        return _row(arr, t, options)
    if root in _INTEGER_BITS:
        bits = _INTEGER_BITS[root]
        odd = pc.or_(pc.less(arr, -(1 << (bits - 1))), pc.greater(arr, (1 << (bits - 1)) - 1))
        return pc.cast(arr, to_arrow(t), safe=False), _known(odd)
    if root == "FLOAT":
        return _float32(arr)
    if root in _TEXT_READ:
        return _temporal(arr, t, options)
    if root == "DECIMAL":  # pyarrow does not check the precision of whole numbers
        largest = Decimal("9" * (t.precision - t.scale) + "." + "9" * t.scale) if t.scale else Decimal("9" * t.precision)
        return arr, _known(pc.greater(pc.abs(arr), pa.scalar(largest, arr.type)))
    return arr, pa.array([False] * len(arr))


def _row(arr: pa.StructArray, t: DataType, options: JsonOptions) -> tuple[pa.Array, pa.Array]:
    """A nested ROW: each field converted as a top-level one; odd where any field is odd."""
    children, odd = [], pa.array([False] * len(arr))
    for i, f in enumerate(t.fields):
        child, child_odd = _column(arr.field(i), f.type, options)
        children.append(child)
        odd = pc.or_(odd, child_odd)
    mask = arr.is_null() if arr.null_count else None
    row = pa.StructArray.from_arrays(children, fields=list(to_arrow(t)), mask=mask)
    return row, odd


def _known(mask: pa.Array) -> pa.Array:
    return pc.fill_null(mask, False)


def _float32(arr: pa.Array) -> tuple[pa.Array, pa.Array]:
    """Flink rounds FLOAT text straight to binary32; rounding the double again only differs when
    the double sits exactly between two floats, or below the normal float range, or above it."""
    bits = arr.view(pa.int64())
    tie = pc.equal(pc.bit_wise_and(bits, 0x1FFFFFFF), 0x10000000)
    magnitude = pc.abs(arr)
    out_of_range = pc.or_(pc.less(magnitude, 2.0 ** -126), pc.greater(magnitude, 3.4e38))
    odd = pc.and_(pc.or_(tie, out_of_range), pc.not_equal(magnitude, 0.0))
    return pc.cast(arr, pa.float32(), safe=False), _known(odd)


def _temporal(text: pa.Array, t: DataType, options: JsonOptions) -> tuple[pa.Array, pa.Array]:
    root = t.root
    separator = "T" if options.timestamp_format == "ISO-8601" else " "
    if root == "DATE":
        layout = _DATE
    elif root == "TIME":
        layout = _TIME + _FRACTION
    else:
        layout = _DATE + separator + _TIME + _FRACTION + ("Z" if root == TIMESTAMP_LTZ else "")
    valid = pc.fill_null(pc.match_substring_regex(text, "^" + layout + "$"), False)
    odd = pc.and_(text.is_valid(), pc.invert(valid))
    usable = pc.if_else(valid, text, pa.scalar(None, pa.string())) if pc.any(odd).as_py() else text
    if root == "DATE":
        seconds = pc.strptime(usable, "%Y-%m-%d", unit="s").cast(pa.int64())
        return pc.divide(seconds, 86_400).cast(pa.int32()).cast(pa.date32()), odd
    if root == "TIME":
        clock = pc.add(pc.add(pc.multiply(_slice_int(usable, 0, 2), 3600), pc.multiply(_slice_int(usable, 3, 5), 60)),
                       _slice_int(usable, 6, 8))
        return pc.multiply(clock, 1000).cast(pa.int32()).cast(pa.time32("ms")), odd  # whole seconds, as Flink
    seconds = pc.strptime(pc.utf8_slice_codeunits(usable, 0, 19), f"%Y-%m-%d{separator}%H:%M:%S", unit="s")
    nanos = pc.add(pc.multiply(seconds.cast(pa.int64()), 1_000_000_000), _fraction_nanos(usable, 19))
    return nanos.cast(to_arrow(t)), odd


def _slice_int(text: pa.Array, start: int, stop: int) -> pa.Array:
    return pc.cast(pc.utf8_slice_codeunits(text, start, stop), pa.int64())


def _fraction_nanos(text: pa.Array, start: int) -> pa.Array:
    """The digits after the point at `start`, as nanoseconds (0 when there is no fraction)."""
    rest = pc.utf8_slice_codeunits(text, start + 1, start + 10)
    digits = pc.replace_substring_regex(rest, r"[^0-9].*$", "")
    return pc.cast(pc.utf8_rpad(digits, 9, "0"), pa.int64())
