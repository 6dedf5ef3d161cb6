"""Arrow rows -> the exact bytes Flink's `csv` format writes for them (CsvRowDataSerializationSchema).

Flink fills a Jackson tree per row and writes it with Jackson's CSV writer, without a line
separator. Numbers and booleans are written as they print; text values (strings, dates, times,
timestamps, Base64 bytes) are quoted when they are longer than 24 UTF-16 code units, or when
any character's code is at most the larger of the field delimiter and the quote character, or
is a backslash (Jackson's loose quoting check); inside
quotes the quote character is doubled, and with an escape character that character is doubled
too. A null is the null literal, unquoted.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import json_encoder
from accelerator.formats.csv_options import CsvOptions
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType

_JSON_DEFAULTS = JsonOptions()


def _unquote(text: pa.Array) -> pa.Array:
    """json_encoder's text of a JSON string, without the surrounding quotes."""
    return pc.utf8_slice_codeunits(text, 1, -1)


def _times(arr: pa.Array) -> pa.Array:
    """ISO_LOCAL_TIME of the milliseconds Flink holds: HH:mm:ss, then the fraction without
    trailing zeros."""
    millis = arr.cast(pa.int32()) if arr.type == pa.time32("ms") else pc.cast(arr, pa.time32("ms")).cast(pa.int32())
    seconds = pc.divide(millis, 1000)
    fraction = pc.subtract(millis, pc.multiply(seconds, 1000))
    hours = pc.divide(seconds, 3600)
    minutes = pc.divide(pc.subtract(seconds, pc.multiply(hours, 3600)), 60)
    secs = pc.subtract(seconds, pc.add(pc.multiply(hours, 3600), pc.multiply(minutes, 60)))
    parts = [pc.utf8_lpad(pc.cast(v, pa.string()), 2, "0") for v in (hours, minutes, secs)]
    base = pc.binary_join_element_wise(*parts, ":")
    digits = pc.utf8_rtrim(pc.utf8_lpad(pc.cast(fraction, pa.string()), 3, "0"), characters="0")
    return pc.if_else(pc.equal(fraction, 0), base, pc.binary_join_element_wise(base, digits, "."))


def _decimals(arr: pa.Array, t: DataType, options: CsvOptions) -> pa.Array:
    """Left unset, Flink writes the decimal with its scale in plain notation; set to 'true',
    write-bigdecimal-in-scientific-notation strips trailing zeros and prints BigDecimal.toString
    (100.00 -> 1E+2), as Flink's json format does by default."""
    return json_encoder.encode_values(arr, t, JsonOptions(decimal_as_plain_number=not options.scientific_decimals))


def _floating(arr: pa.Array, single: bool) -> pa.Array:
    """Float/Double.toString; json_encoder quotes NaN and the infinities, Jackson's CSV writer does not."""
    return pc.replace_substring(json_encoder.encode_values(arr, DataType("FLOAT" if single else "DOUBLE"),
                                                          _JSON_DEFAULTS), '"', "")


def _value_texts(arr: pa.Array, t: DataType, options: CsvOptions) -> tuple[pa.Array, bool]:
    """The text of each value and whether it goes through Jackson's string path (may be quoted)."""
    root = t.root
    if root == "BOOLEAN":
        return pc.if_else(arr, "true", "false"), False
    if root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return pc.cast(arr, pa.string()), False
    if root in ("FLOAT", "DOUBLE"):
        return _floating(arr, root == "FLOAT"), False
    if root == "DECIMAL":
        return _decimals(arr, t, options), False
    if root in ("CHAR", "VARCHAR"):
        return arr.cast(pa.string()), True
    if root in ("BINARY", "VARBINARY", "DATE"):
        return _unquote(json_encoder.encode_values(arr, t, _JSON_DEFAULTS)), True
    if root == "TIMESTAMP":
        return _unquote(json_encoder.encode_values(arr, t, _JSON_DEFAULTS)), True
    if root == TIMESTAMP_LTZ:
        # Flink's csv writes it through TimestampData.toLocalDateTime, as a TIMESTAMP (whose day
        # is a Java int) with a 'Z'; the json format goes through toInstant.
        local = _unquote(json_encoder.encode_values(arr, DataType("TIMESTAMP", params=t.params), _JSON_DEFAULTS))
        return pc.binary_join_element_wise(local, "Z", ""), True
    if root == "TIME":
        return _times(arr), True
    if root == "ARRAY":
        return _arrays(arr, t, options), True
    raise ValueError(f"the csv encoder does not handle {t.serializable()}")


def _arrays(arr: pa.Array, t: DataType, options: CsvOptions) -> pa.Array:
    """Jackson's CSV writer joins an array's elements, each as its own text would be written
    unquoted (a null as the null literal, or empty), with the element delimiter; the joined text
    is then one text value, quoted by the usual rule. An empty array is an empty text."""
    elements, _ = _value_texts(pc.list_flatten(arr), t.children[0], options)
    elements = pc.fill_null(elements, options.null_literal or "")
    lengths = pc.fill_null(pc.list_value_length(arr), 0).to_numpy(zero_copy_only=False)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    lists = pa.ListArray.from_arrays(pa.array(offsets), elements.cast(pa.string()), mask=arr.is_null())
    return pc.binary_join(lists, options.array_element_delimiter)


#: Jackson quotes every text value longer than this many UTF-16 code units without looking at it.
MAX_UNQUOTED_LENGTH = 24
#: Characters Java holds as two UTF-16 code units.
_SUPPLEMENTARY = "[\\x{10000}-\\x{10FFFF}]"


def _quoting_pattern(options: CsvOptions) -> str:
    """RE2 class of the characters that make Jackson quote a text value."""
    limit = max(ord(options.field_delimiter), ord(options.quote_character))
    return f"[\\x{{00}}-\\x{{{limit:02x}}}\\\\]"


def _quote(text: pa.Array, options: CsvOptions) -> pa.Array:
    if options.quote_character is None:
        return text
    q = options.quote_character
    special = pc.match_substring_regex(text, _quoting_pattern(options))
    utf16_length = pc.add(pc.utf8_length(text), pc.count_substring_regex(text, _SUPPLEMENTARY))
    needs = pc.fill_null(pc.or_(special, pc.greater(utf16_length, MAX_UNQUOTED_LENGTH)), False)
    if not pc.any(needs).as_py():
        return text
    inner = pc.replace_substring(text, q, q + q)
    if options.escape_character is not None:
        inner = pc.replace_substring(inner, options.escape_character, options.escape_character * 2)
    quoted = pc.binary_join_element_wise(q, inner, q, "")
    return pc.if_else(needs, quoted, text)


def encode(batch: pa.RecordBatch | pa.Table, row_type: DataType, options: CsvOptions) -> pa.BinaryArray:
    """One message value per row, byte-identical to Flink's CsvRowDataSerializationSchema."""
    if batch.num_columns != len(row_type.fields):
        raise ValueError(f"batch has {batch.num_columns} columns, the row type {len(row_type.fields)}")
    parts = []
    for f, column in zip(row_type.fields, batch.columns):
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        text, textual = _value_texts(column, f.type, options)
        if textual:
            text = _quote(text, options)
        parts.append(pc.fill_null(text, options.null_literal or ""))
    if not parts:
        return pa.array([b""] * batch.num_rows, pa.binary())
    if len(parts) == 1:
        return parts[0].cast(pa.binary())
    return pc.binary_join_element_wise(*parts, options.field_delimiter).cast(pa.binary())


__all__ = ["encode"]
