"""Arrow rows -> the exact bytes Flink's `json` format writes for them.

Flink builds a Jackson tree per row and writes it compactly: fields in declared order, numbers as
Java prints them, strings escaped the way Jackson escapes them. Rows, strings, integers, booleans,
decimals (unless written as plain numbers), dates and times are written by the native kernel (`accelerator._native.json_values`) straight
from the Arrow buffers; the other types' text is made here, a column at a time with
pyarrow.compute (only values Java prints in an unusual way, such as E-notation doubles, go through
Python one by one), and handed to the kernel as ready JSON fragments.
"""

from __future__ import annotations

import binascii

import pyarrow as pa
import pyarrow.compute as pc

from accelerator import _native
from accelerator.formats import java_text, timestamps
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType

NULL = "null"

def _patch(text: pa.Array, mask: pa.Array, convert, source: pa.Array) -> pa.Array:
    """Replace text[i] by convert(source[i]) where mask[i] (the rare values Python handles)."""
    indices = pc.indices_nonzero(mask)
    if len(indices) == 0:
        return text
    out = text.to_pylist()
    for i, v in zip(indices.to_pylist(), source.take(indices).to_pylist()):
        out[i] = None if v is None else convert(v)
    return pa.array(out, pa.string())


# -- numbers --------------------------------------------------------------------------------------

def _floating(arr: pa.Array, single: bool) -> pa.Array:
    """Java's Float/Double.toString. Arrow prints the shortest digits; Java prints the same digits
    in plain layout for 1e-3 <= |v| < 1e7 when there are few of them; the rest goes to Python."""
    text = pc.cast(arr, pa.string())
    magnitude = pc.abs(arr)
    plain = pc.and_(pc.greater_equal(magnitude, 1e-3), pc.less(magnitude, 1e7))
    few_digits = pc.less_equal(pc.utf8_length(text), 7 if single else 16)
    fast = pc.fill_null(pc.and_(plain, few_digits), False)
    with_point = pc.if_else(pc.match_substring(text, "."), text, pc.binary_join_element_wise(text, ".0", ""))
    to_string = java_text.float_to_string if single else java_text.double_to_string
    return _patch(with_point, pc.invert(fast), lambda v: _non_finite_quoted(to_string(v)), arr)


def _non_finite_quoted(text: str) -> str:
    """Jackson writes NaN and the infinities as JSON strings."""
    return f'"{text}"' if text in ("NaN", "Infinity", "-Infinity") else text


def _decimals(arr: pa.Array, options: JsonOptions) -> pa.Array:
    """BigDecimal text: toPlainString with the column's scale, or (Flink's default) the value with
    trailing zeros stripped, printed by BigDecimal.toString (2270.000 -> 2.27E+3).

    Arrow prints decimals as BigDecimal.toString does; rows where that is not the answer
    (E-notation, or an integer that stripping turns into E-notation) go through Python."""
    text = pc.cast(arr, pa.string())
    if options.decimal_as_plain_number:
        odd = pc.match_substring(text, "E")
        convert = lambda v: java_text.big_decimal_to_plain_string(v)  # noqa: E731
    else:
        if arr.type.scale > 0:
            text = pc.replace_substring_regex(text, r"\.?0+$", "")
        odd = pc.or_(pc.match_substring(text, "E"), pc.match_substring_regex(text, r"[1-9]0+$"))
        convert = lambda v: java_text.big_decimal_to_string(java_text.strip_trailing_zeros(v))  # noqa: E731
    return _patch(text, pc.fill_null(odd, False), convert, arr)


def _binaries(arr: pa.Array) -> pa.Array:
    """Jackson writes bytes as standard Base64 with padding, as a JSON string."""
    return pa.array([None if v is None else '"' + binascii.b2a_base64(v, newline=False).decode() + '"'
                     for v in arr.to_pylist()], pa.string())


# -- nested ---------------------------------------------------------------------------------------

def _lists(arr: pa.ListArray, t: DataType, options: JsonOptions) -> pa.Array:
    elements = pc.fill_null(encode_values(arr.values, t.children[0], options), NULL)
    joined = pc.binary_join(pa.ListArray.from_arrays(arr.offsets, elements), ",")
    return _restore_nulls(pc.binary_join_element_wise("[", joined, "]", ""), arr)


def _maps(arr: pa.MapArray, t: DataType, options: JsonOptions) -> pa.Array:
    """Jackson writes every key as a string: keys of other types as their text, quoted."""
    keys = _native_text(_column(arr.keys, _STRING, options), options)
    values = pc.fill_null(encode_values(arr.items, t.children[1], options), NULL)
    entries = pc.binary_join_element_wise(keys, values, ":")
    joined = pc.binary_join(pa.ListArray.from_arrays(arr.offsets, entries), ",")
    return _restore_nulls(pc.binary_join_element_wise("{", joined, "}", ""), arr)


def _restore_nulls(text: pa.Array, arr: pa.Array) -> pa.Array:
    if arr.null_count == 0:
        return text
    return pc.if_else(arr.is_valid(), text, pa.scalar(None, pa.string()))


# -- the native kernel's columns ------------------------------------------------------------------

#: Types whose text is made here and handed to the kernel as JSON fragments.
_FRAGMENTS = ("FLOAT", "DOUBLE", "DECIMAL", "BINARY", "VARBINARY", "ARRAY", "MAP")
_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_STRING = DataType("VARCHAR")
_BIGINT, _INT = DataType("BIGINT", nullable=False), DataType("INT", nullable=False)


def _as(arr: pa.Array, arrow_type: pa.DataType) -> pa.Array:
    return arr if arr.type == arrow_type else arr.cast(arrow_type)


def _column(arr: pa.Array, t: DataType, options: JsonOptions) -> tuple:
    """How the native kernel reads `arr` (of Flink type `t`): its kind, length, offset, validity,
    buffers, parameters and (for rows) its fields' names and columns."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    root = t.root
    params: tuple = ()
    fields: list = []
    if root == "DECIMAL" and not options.decimal_as_plain_number and pa.types.is_decimal128(arr.type):
        kind, params = "decimal", (arr.type.scale,)
    elif root in _FRAGMENTS:
        kind, arr = "fragment", _as(encode_values(arr, t, options), pa.string())
    elif root == "BOOLEAN":
        kind, arr = "bool", _as(arr, pa.bool_())
    elif root in _INTEGERS:
        arr = arr if pa.types.is_signed_integer(arr.type) else arr.cast(pa.int64())
        kind, params = "int", (arr.type.bit_width // 8,)
    elif root in ("CHAR", "VARCHAR"):
        kind, arr = "string", _as(arr, pa.string())
    elif root == "DATE":
        kind, arr = "date", _as(arr, pa.date32())
    elif root == "TIME":
        kind, arr = "time", _as(arr, pa.time32("ms"))
    elif root in ("TIMESTAMP", TIMESTAMP_LTZ) and arr.type == timestamps.ARROW_TYPE:
        kind = "timestamp"
        params = (options.timestamp_format == "ISO-8601", root == TIMESTAMP_LTZ)
        fields = [(name.encode(), _column(arr.field(i), part, options))
                  for i, (name, part) in enumerate(((timestamps.MILLIS, _BIGINT), (timestamps.NANOS, _INT)))]
    elif root == "ROW" and pa.types.is_struct(arr.type):
        kind = "row"
        # A struct's child arrays come with the struct's offset applied: row i is their value i.
        fields = [(f.name.encode(), _column(arr.field(i), f.type, options)) for i, f in enumerate(t.fields)]
    else:
        raise ValueError(f"the json encoder does not handle {t.serializable()} held as Arrow {arr.type}")
    buffers = arr.buffers()
    validity = buffers[0] if arr.null_count else None
    return kind, len(arr), arr.offset, validity, [] if fields else buffers[1:], params, fields


def _native_text(column: tuple, options: JsonOptions, arrow_type: pa.DataType = pa.string()) -> pa.Array:
    """The kernel's JSON text of each value of `column` ("" for a null value)."""
    data, offsets = _native.json_values(column, options.ignore_null_fields)
    return pa.Array.from_buffers(arrow_type, column[1], [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def encode_values(arr: pa.Array, t: DataType, options: JsonOptions) -> pa.Array:
    """The JSON text of each value of `arr` (of Flink type `t`); null where the value is null."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    root = t.root
    if root in ("FLOAT", "DOUBLE"):
        return _floating(arr, single=root == "FLOAT")
    if root == "DECIMAL":
        return _decimals(arr, options)
    if root in ("BINARY", "VARBINARY"):
        return _binaries(arr)
    if root == "ARRAY":
        return _lists(arr, t, options)
    if root == "MAP":
        return _maps(arr, t, options)
    return _restore_nulls(_native_text(_column(arr, t, options), options), arr)


def encode(batch: pa.RecordBatch, row_type: DataType, options: JsonOptions) -> pa.BinaryArray:
    """One message value per row, byte-identical to Flink's JsonRowDataSerializationSchema."""
    if batch.num_columns != len(row_type.fields):
        raise ValueError(f"batch has {batch.num_columns} columns, the row type {len(row_type.fields)}")
    fields = [(f.name.encode(), _column(c, f.type, options)) for f, c in zip(row_type.fields, batch.columns)]
    return _native_text(("row", batch.num_rows, 0, None, [], (), fields), options, pa.binary())
