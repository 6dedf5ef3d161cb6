"""Kafka message values -> Arrow rows, exactly as Flink's `csv` format (CsvRowDataDeserializationSchema,
flink-csv 2.2.1) decodes them.

Flink reads the first CSV record of each message with Jackson's CSV parser, checks the number of
fields, then converts each field's text with the Java parse of its type (`java_parse`). Here each
message is read as Jackson reads its bytes (`jackson_text`), then split by a model of that parser;
where the model is not sure how Jackson reads a record (text after a closing quote, a byte-order
mark, a message Jackson reads as UTF-16 or UTF-32) the record is reported instead of guessed.

With csv.ignore-parse-errors Flink skips a record it cannot split (or that has too many fields),
and nulls a field it cannot convert or that a short record lacks.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import pyarrow as pa

from accelerator.formats import FormatError, jackson_base64, java_parse, java_sql_date, java_time
from accelerator.formats.csv_options import CsvOptions
from accelerator.formats.jackson_text import (MAX_STRING_LENGTH, flink_string, java_length, read_as_utf16_or_32,
                                              read_text)
from accelerator.formats.json_decoder import DecodeResult
from accelerator.formats.types import TIMESTAMP_LTZ, DataType, to_arrow_field
from accelerator.formats.value_columns import column as _column

REMEDY = "set 'csv.ignore-parse-errors' = 'true' to skip such records"
UNREPRODUCIBLE_REMEDY = ("run this job without the accelerator ('accelerator.enabled' = 'false'), "
                         "where stock Flink decodes this record")
_INTEGER_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
#: TIME(p) keeps milliseconds of the day cut to p digits (Flink refuses p > 3).
_TIME_UNIT = {0: 1000, 1: 100, 2: 10, 3: 1}


class Unreproducible(Exception):
    """The record is one whose reading by Jackson the model does not vouch for."""


class Malformed(Exception):
    """Flink's parser rejects the record (the whole record is skipped under ignore-parse-errors)."""


def split_record(text: str, options: CsvOptions) -> tuple[list[tuple[str, bool]], int | None]:
    """The fields of the text's first record, (text, was it quoted), and how many chars of the
    text the parser reads for it: up to its line break and one char beyond (None when the
    record runs to the end of the text, which the parser then reads to its end)."""
    if text == "":
        raise Malformed("No content to map due to end-of-input")
    if text.startswith("\ufeff"):
        raise Unreproducible("the record starts with a byte-order mark")
    d, q = options.field_delimiter, options.quote_character
    fields: list[tuple[str, bool]] = []
    pos, n = 0, len(text)
    while True:
        if pos < n and text[pos] == q:
            value, pos = _quoted(text, pos + 1, q)
            while pos < n and text[pos] == " ":
                pos += 1
            if pos < n and text[pos] not in (d, "\n", "\r"):
                raise Unreproducible(f"text follows the closing quote of field {len(fields) + 1}")
            fields.append((value, True))
        else:
            found = _field_end(d).search(text, pos)
            end = n if found is None else found.start()
            fields.append((text[pos:end], False))
            pos = end
        if pos >= n or text[pos] in ("\n", "\r"):  # the first line ends the record; the rest is not read
            _check_lengths(fields, n)
            if pos >= n:
                return fields, None
            return fields, pos + (2 if text.startswith("\r\n", pos) else 1) + 1
        pos += 1  # the delimiter


@functools.cache
def _field_end(delimiter: str) -> re.Pattern:
    """What ends an unquoted field: the delimiter or a line break."""
    return re.compile(f"[{re.escape(delimiter)}\n\r]")


def _check_lengths(fields: list[tuple[str, bool]], text_length: int) -> None:
    if text_length <= MAX_STRING_LENGTH // 2:  # no value can be longer (a char is at most two Java chars)
        return
    for value, _ in fields:
        if len(value) > MAX_STRING_LENGTH // 2 and java_length(value) > MAX_STRING_LENGTH:
            raise Malformed(f"String value length ({java_length(value)}) exceeds the maximum allowed"
                            f" ({MAX_STRING_LENGTH})")


def _quoted(text: str, pos: int, q: str) -> tuple[str, int]:
    """A quoted field's value (doubled quotes undone) and the position after its closing quote."""
    parts = []
    while True:
        close = text.find(q, pos)
        if close < 0:
            raise Malformed("Missing closing quote for value")
        parts.append(text[pos:close])
        if text[close + 1:close + 2] == q:
            parts.append(q)
            pos = close + 2
            continue
        return "".join(parts), close + 1


def _converter(t: DataType) -> Callable[[str], object]:
    """Flink's conversion of a field's text to type `t`; raises ValueError where Java throws."""
    root = t.root
    if root in ("CHAR", "VARCHAR"):
        return flink_string
    if root == "BOOLEAN":
        return lambda s: java_parse.parse_boolean(java_parse.trim(s))
    if root in _INTEGER_BITS:
        bits = _INTEGER_BITS[root]
        return lambda s: java_parse.parse_integer(java_parse.trim(s), bits)
    if root == "DOUBLE":
        return java_parse.parse_double
    if root == "FLOAT":
        return java_parse.parse_float
    if root == "DECIMAL":
        precision, scale = t.precision, t.scale
        return lambda s: java_parse.fit_decimal(java_parse.parse_big_decimal(s), precision, scale)  # no trim here
    if root == "DATE":
        return java_sql_date.parse_date
    if root == "TIME":
        unit = _TIME_UNIT[t.precision]
        return lambda s: java_time.parse_local_time(s) // 1_000_000 // unit * unit
    if root == "TIMESTAMP":
        return lambda s: java_time.parse_timestamp(java_parse.trim(s), java_time.SQL_TIMESTAMP, smart=True)
    if root == TIMESTAMP_LTZ:
        return lambda s: java_time.parse_timestamp(java_parse.trim(s), java_time.SQL_TIMESTAMP_LTZ, smart=True)
    if root in ("BINARY", "VARBINARY"):
        return jackson_base64.decode
    raise ValueError(f"the csv decoder does not handle {t.serializable()}")


def _array_converter(t: DataType, options: CsvOptions) -> Callable[[str], object]:
    """Jackson splits an ARRAY column's text at every element delimiter (a text without one that
    trims to nothing is the empty array); an element equal to the null literal is null, any other
    is read as the element type, and under ignore-parse-errors one it cannot read is null."""
    convert = _converter(t.children[0])
    delimiter, null_literal, ignore = options.array_element_delimiter, options.null_literal, options.ignore_parse_errors

    def element(text: str) -> object:
        if text == null_literal:
            return None
        try:
            return convert(text)
        except ValueError:
            if ignore:
                return None
            raise

    def array(text: str) -> list:
        if delimiter not in text and java_parse.trim(text) == "":
            return []
        return [element(e) for e in text.split(delimiter)]
    return array


class RecordDecoder:
    """One message -> its row, None (skipped under ignore-parse-errors), or Malformed/Unreproducible."""

    def __init__(self, row_type: DataType, options: CsvOptions):
        self._fields = row_type.fields
        self._converters = [_array_converter(f.type, options) if f.type.root == "ARRAY" else _converter(f.type)
                            for f in row_type.fields]
        #: Jackson reads an ARRAY column equal to the null literal as an array of one null element.
        self._nullable_text = [f.type.root != "ARRAY" for f in row_type.fields]
        self._options = options

    def decode(self, message: bytes) -> tuple | None:
        if read_as_utf16_or_32(message):
            raise Unreproducible("its first bytes make Jackson read it as UTF-16 or UTF-32")
        text, utf8_error = read_text(message)
        ignore = self._options.ignore_parse_errors
        try:
            fields, read = split_record(text, self._options)
            if utf8_error is not None and (read is None or read > len(text)):
                raise Malformed(utf8_error)  # the parser reads up to the bytes Jackson rejects
        except Malformed:
            if ignore:
                return None
            raise
        arity = len(self._fields)
        if len(fields) == arity + 1 and java_parse.trim(fields[-1][0]) == "":
            if fields[-1][1] and fields[-1][0]:
                raise Unreproducible("a quoted blank value after the last column")
            fields.pop()  # Jackson drops one blank trailing column
        if len(fields) > arity:
            if ignore:
                return None
            raise Malformed(f"Too many entries: expected at most {arity}, found {len(fields)}")
        if len(fields) < arity and not ignore:
            raise Malformed(f"Row length mismatch. {arity} fields expected but was {len(fields)}.")
        null_literal = self._options.null_literal
        row = []
        for i, f in enumerate(self._fields):
            if i >= len(fields):
                row.append(None)
                continue
            value, _quoted_field = fields[i]
            if null_literal is not None and value == null_literal and self._nullable_text[i]:
                row.append(None)
                continue
            try:
                row.append(self._converters[i](value))
            except ValueError as e:
                if ignore:
                    row.append(None)
                    continue
                raise Malformed(f"Fail to deserialize at field: {f.name}. ({e})") from None
        return tuple(row)


def decode(values: pa.Array, row_type: DataType, options: CsvOptions) -> DecodeResult:
    """Decode one batch of message values (null values are tombstones: Flink emits nothing)."""
    decoder = RecordDecoder(row_type, options)
    rows, kept, skipped = [], [], 0
    for i, message in enumerate(values.to_pylist()):
        if message is None:
            skipped += 1
            continue
        try:
            row = decoder.decode(message)
        except Unreproducible as e:
            raise FormatError(i, f"Flink's csv format reads this record in a way the accelerator does not "
                                 f"reproduce: {e}", UNREPRODUCIBLE_REMEDY) from None
        except Malformed as e:
            raise FormatError(i, f"Flink's csv format cannot decode this record: {e}", REMEDY) from None
        if row is None:
            skipped += 1
            continue
        for j, f in enumerate(row_type.fields):
            if row[j] is None and not f.type.nullable:
                raise FormatError(i, f"field '{f.name}' is declared NOT NULL but the record has no value for it",
                                  "make the column nullable or fix the producer")
        rows.append(row)
        kept.append(i)
    schema = pa.schema([to_arrow_field(f.name, f.type) for f in row_type.fields])
    batch = pa.RecordBatch.from_arrays([_column([r[j] for r in rows], f.type) for j, f in enumerate(row_type.fields)],
                                       schema=schema)
    in_order = len(kept) == len(values)
    return DecodeResult(batch, None if in_order else pa.array(kept, pa.int32()), skipped)
