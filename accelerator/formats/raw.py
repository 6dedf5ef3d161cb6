"""Flink's built-in `raw` format (flink-table-runtime 2.2.1): one column, the whole message value.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink. `decode` is the Arrow-side equivalent of Flink's RawFormatDeserializationSchema,
`encode` of its RawFormatSerializationSchema: BYTES are the message as is, strings its bytes in
`raw.charset` (UTF-8 by default), numbers their fixed-width two's complement / IEEE 754 bytes in the configured byte order,
BOOLEAN one byte. A null value is a tombstone both ways.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import FormatError, types
from accelerator.formats.json_decoder import DecodeResult

__all__ = ["DecodeResult", "RawOptions", "decode", "encode", "parse_options", "supported"]

CHARSET = "raw.charset"
ENDIANNESS = "raw.endianness"
KNOWN = (CHARSET, ENDIANNESS)
#: Names Java's Charset.forName resolves to UTF-8 (compared case-insensitively, as Java does).
UTF8_NAMES = ("utf-8", "utf8", "unicode-1-1-utf-8")
#: Other charsets whose Java decoding (`new String(bytes, charset)`: an unmappable byte becomes
#: U+FFFD) and encoding (`String.getBytes(charset)`: an unmappable character, a surrogate pair
#: included, becomes one '?') Python's codecs with errors="replace" reproduce: Java's names for
#: them (lower case) -> Python's codec, and whether decoding is reproduced too. UTF-16 decoding
#: is not (Java and Python replace a malformed sequence differently).
CHARSETS = {
    **{name: ("latin-1", True) for name in ("iso-8859-1", "iso8859-1", "iso8859_1", "iso_8859_1", "latin1", "l1")},
    **{name: ("ascii", True) for name in ("us-ascii", "ascii")},
    "utf-16be": ("utf-16-be", False),
    "utf-16le": ("utf-16-le", False),
}
#: Fixed-width types: their byte width and the name Flink's size check prints.
WIDTHS = {"BOOLEAN": (1, "BOOLEAN"), "TINYINT": (1, "TINYINT"), "SMALLINT": (2, "SMALLINT"),
          "INT": (4, "INT"), "BIGINT": (8, "BIGINT"), "FLOAT": (4, "FLOAT"), "DOUBLE": (8, "DOUBLE")}
_NUMPY = {"TINYINT": "i1", "SMALLINT": "i2", "INT": "i4", "BIGINT": "i8", "FLOAT": "f4", "DOUBLE": "f8"}
STRINGS = ("CHAR", "VARCHAR")
BINARIES = ("BINARY", "VARBINARY")
UNREPRODUCIBLE_REMEDY = ("run this job without the accelerator ('accelerator.enabled' = 'false'), "
                         "where stock Flink decodes this record")


class OptionError(ValueError):
    """An option Flink itself would reject when creating the format."""


@dataclass(frozen=True)
class RawOptions:
    big_endian: bool = True
    #: Python's codec for `raw.charset`; None for UTF-8 (the bytes are the string's own).
    codec: str | None = None


def parse_options(options: dict[str, str]) -> RawOptions:
    """Read the table's `raw.*` options (full keys), rejecting what Flink's RawFormatFactory
    rejects and what the accelerator does not reproduce (a charset not in `CHARSETS`)."""
    unknown = sorted(k for k in options if k.startswith("raw.") and k not in KNOWN)
    if unknown:
        raise OptionError(f"unsupported raw format options {unknown}; supported are {list(KNOWN)}")
    endianness = options.get(ENDIANNESS, "big-endian")
    if endianness.lower() not in ("big-endian", "little-endian"):
        raise OptionError(f"option {ENDIANNESS} must be 'big-endian' or 'little-endian', not {endianness!r}")
    charset = options.get(CHARSET, "UTF-8").lower()
    if charset not in UTF8_NAMES and charset not in CHARSETS:
        raise OptionError(f"'{CHARSET}' = '{options[CHARSET]}' is not accelerated (only UTF-8,"
                          f" {', '.join(sorted({c for c, _ in CHARSETS.values()}))})")
    return RawOptions(big_endian=endianness.lower() == "big-endian",
                      codec=None if charset in UTF8_NAMES else CHARSETS[charset][0])


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode") -> str | None:
    """None if the raw format with this row type and these options is reproduced exactly in
    `direction` ("encode" or "decode"); otherwise the reason it is not."""
    t, unreadable = types.asked_row_type(row_type, direction)
    if unreadable:
        return unreadable
    if t.root != "ROW":
        return f"the raw format needs a ROW type, got {t.serializable()}"
    if len(t.fields) != 1:
        return f"the raw format has exactly one column, this row has {len(t.fields)}"
    try:
        parse_options(options)
    except OptionError as e:
        return f"raw options: {e}"
    charset = options.get(CHARSET, "UTF-8")
    if direction == "decode" and charset.lower() in CHARSETS and not CHARSETS[charset.lower()][1]:
        return (f"'{CHARSET}' = '{charset}' is not accelerated when decoding (Java's replacement of malformed"
                f" sequences is not reproduced)")
    column = t.fields[0].type
    if column.root not in WIDTHS and column.root not in STRINGS and column.root not in BINARIES:
        return f"{t.fields[0].name}: type {column.serializable()} is not accelerated in the raw format"
    return None


def _offsets_and_data(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Start offset of every value and the data buffer of a (Large)BinaryArray, as numpy."""
    offset_type = np.int64 if pa.types.is_large_binary(values.type) else np.int32
    buffers = values.buffers()
    offsets = np.frombuffer(buffers[1], dtype=offset_type)[values.offset:values.offset + len(values) + 1]
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    return offsets.astype(np.int64), data


def decode(values: pa.Array, row_type: types.DataType, options: RawOptions) -> DecodeResult:
    """Decode one batch of message values (nulls are tombstones and give a null column value)."""
    field = row_type.fields[0]
    t = field.type
    if pa.types.is_large_binary(values.type) or pa.types.is_large_string(values.type):
        values = values.cast(pa.large_binary())
    else:
        values = values.cast(pa.binary())
    if not t.nullable and values.null_count:
        row = pc.index(values.is_null(), True).as_py()
        raise FormatError(row, f"field '{field.name}' is declared NOT NULL but the record is a tombstone "
                               f"(null value)", "make the column nullable or fix the producer")
    if t.root in BINARIES:
        column = values.cast(pa.binary())
    elif t.root in STRINGS:
        column = _utf8(values) if options.codec is None else pa.array(
            [None if v is None else v.decode(options.codec, errors="replace") for v in values.to_pylist()], pa.string())
    else:
        column = _fixed_width(values, t.root, options.big_endian)
    schema = pa.schema([types.to_arrow_field(field.name, t)])
    return DecodeResult(pa.RecordBatch.from_arrays([column], schema=schema), None, 0)


def _utf8(values: pa.Array) -> pa.Array:
    """Flink keeps the bytes as they are (StringData.fromBytes); Arrow strings must be valid UTF-8,
    so a value that is not cannot be held and is reported, naming the record."""
    try:
        return values.cast(pa.string())
    except pa.ArrowInvalid:
        for i, v in enumerate(values.to_pylist()):
            if v is not None:
                try:
                    v.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise FormatError(i, f"the value is not valid UTF-8 ({e.reason} at byte {e.start}); Flink's raw "
                                         f"format keeps such bytes in the string, which the accelerator does not "
                                         f"reproduce", UNREPRODUCIBLE_REMEDY) from None
        raise


def _fixed_width(values: pa.Array, root: str, big_endian: bool) -> pa.Array:
    width, name = WIDTHS[root]
    lengths = pc.binary_length(values)
    wrong = pc.and_kleene(values.is_valid(), pc.not_equal(lengths, width))
    if pc.any(wrong).as_py():
        row = pc.index(wrong, True).as_py()
        raise FormatError(row, f"Flink's raw format cannot decode this record: Size of data received for "
                               f"deserializing {name} type is not {width}. (it has {lengths[row].as_py()} bytes)",
                          "fix the producer, or declare the column BYTES and convert it in the query")
    valid = values.is_valid().to_numpy(zero_copy_only=False)
    offsets, data = _offsets_and_data(values)
    starts = np.where(valid, offsets[:-1], 0)
    padded = np.concatenate([data, np.zeros(width, np.uint8)])  # null slots read zeros, masked below
    index = starts[:, None] + np.arange(width)[None, :]
    index = np.where(valid[:, None], index, len(data))
    raw = padded[index.ravel()] if len(values) else np.zeros(0, np.uint8)
    mask = ~valid if values.null_count else None
    if root == "BOOLEAN":
        return pa.array(raw != 0, pa.bool_(), mask=mask)
    order = ">" if big_endian else "<"
    numbers = raw.view(order + _NUMPY[root]).astype(_NUMPY[root])
    return pa.array(numbers, types.to_arrow(types.DataType(root)), mask=mask)


def encode(batch: pa.RecordBatch | pa.Table, row_type: types.DataType, options: RawOptions) -> pa.BinaryArray:
    """One message value per row: a null column value is a null message (a tombstone)."""
    field = row_type.fields[0]
    t = field.type
    column = batch.column(0)
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if t.root in BINARIES:
        return column.cast(pa.binary())
    if t.root in STRINGS:
        strings = column.cast(pa.string())
        if options.codec is None:
            return strings.cast(pa.binary())
        return pa.array([None if v is None else v.encode(options.codec, errors="replace")
                         for v in strings.to_pylist()], pa.binary())
    width, _ = WIDTHS[t.root]
    n = len(column)
    if t.root == "BOOLEAN":
        data = pc.fill_null(column, False).to_numpy(zero_copy_only=False).astype(np.uint8)
    else:
        order = ">" if options.big_endian else "<"
        arrow = types.to_arrow(t)
        filled = pc.fill_null(column.cast(arrow), pa.scalar(0, arrow))
        data = filled.to_numpy(zero_copy_only=False).astype(order + _NUMPY[t.root])
    offsets = np.arange(n + 1, dtype=np.int32) * width
    validity = column.buffers()[0] if column.null_count else None
    if validity is not None and column.offset:
        validity = pa.array(column.is_valid()).buffers()[1]
    return pa.Array.from_buffers(pa.binary(), n, [validity, pa.py_buffer(offsets.tobytes()),
                                                  pa.py_buffer(data.tobytes())], column.null_count)
