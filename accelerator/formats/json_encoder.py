"""Arrow rows -> the exact bytes Flink's `json` format writes for them.

Flink builds a Jackson tree per row and writes it compactly: fields in declared order, numbers as
Java prints them, strings escaped the way Jackson escapes them. Here every column is turned into
its JSON text at once with pyarrow.compute; only values whose text Java prints in an unusual way
(E-notation doubles, far-off years, strings needing escapes, ...) go through Python one by one.
"""

from __future__ import annotations

import binascii
import re
from decimal import Decimal

import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import java_text
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType

NULL = "null"

# -- strings --------------------------------------------------------------------------------------

#: What Jackson escapes: quote, backslash, control characters, and (written as a surrogate pair)
#: anything outside the Basic Multilingual Plane.
_NEEDS_ESCAPE_RE2 = r'["\\\x00-\x1f]|[\x{10000}-\x{10FFFF}]'
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\U00010000-\U0010ffff]')
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
                  "\r": "\\r"}


def _escape_char(m: re.Match) -> str:
    c = m.group()
    if c in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[c]
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04X}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04X}\\u{0xDC00 + (code & 0x3FF):04X}"


def quote(text: str) -> str:
    """One string as Jackson writes it, quotes included."""
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def _strings(arr: pa.Array) -> pa.Array:
    arr = arr.cast(pa.string()) if arr.type != pa.string() else arr
    needs = pc.fill_null(pc.match_substring_regex(arr, _NEEDS_ESCAPE_RE2), False)
    plain = pc.binary_join_element_wise('"', arr, '"', "")
    if not pc.any(needs).as_py():
        return plain
    return _patch(plain, needs, lambda v: quote(v), arr)


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


# -- dates and times ------------------------------------------------------------------------------

def _year_text(year: int) -> str:
    """Java's year field: 4 digits, a sign when outside 0..9999."""
    if 0 <= year <= 9999:
        return f"{year:04d}"
    return f"+{year}" if year > 0 else f"-{-year:04d}"


def _civil(days: int) -> tuple[int, int, int]:
    """Proleptic Gregorian (year, month, day) of a day number, for any year."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def _date_text(days: int) -> str:
    y, m, d = _civil(days)
    return f"{_year_text(y)}-{m:02d}-{d:02d}"


def _dates(arr: pa.Array) -> pa.Array:
    year = pc.year(arr)
    odd = pc.or_(pc.less(year, 0), pc.greater(year, 9999))
    return _quoted(_patch(_date_part(arr, year), pc.fill_null(odd, False), _date_text, arr.cast(pa.int32())))


def _digits(values: pa.Array, width: int) -> pa.Array:
    return pc.utf8_lpad(pc.cast(values, pa.string()), width, "0")


def _date_part(arr: pa.Array, year: pa.Array) -> pa.Array:
    """yyyy-MM-dd from calendar fields (years 0-9999; the caller patches the others): an order
    of magnitude cheaper than strftime."""
    return pc.binary_join_element_wise(_digits(year, 4), _digits(pc.month(arr), 2), _digits(pc.day(arr), 2), "-")


def _quoted(text: pa.Array) -> pa.Array:
    return pc.binary_join_element_wise('"', text, '"', "")


def _times(arr: pa.Array) -> pa.Array:
    """TIME is written from whole seconds: Flink drops the milliseconds it holds."""
    millis = arr.cast(pa.int32()) if arr.type == pa.time32("ms") else pc.cast(arr, pa.time32("ms")).cast(pa.int32())
    seconds = pc.divide(millis, 1000)  # times of day are never negative
    hours = pc.divide(seconds, 3600)
    minutes = pc.divide(pc.subtract(seconds, pc.multiply(hours, 3600)), 60)
    secs = pc.subtract(seconds, pc.add(pc.multiply(hours, 3600), pc.multiply(minutes, 60)))
    parts = [pc.utf8_lpad(pc.cast(v, pa.string()), 2, "0") for v in (hours, minutes, secs)]
    return _quoted(pc.binary_join_element_wise(*parts, ":"))


def _timestamp_text(nanos: int, separator: str, suffix: str) -> str:
    days, rest = divmod(nanos, 86_400_000_000_000)
    seconds, fraction = divmod(rest, 1_000_000_000)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    frac = f".{fraction:09d}".rstrip("0") if fraction else ""
    return f"{_date_text(days)}{separator}{h:02d}:{m:02d}:{s:02d}{frac}{suffix}"


def _timestamps(arr: pa.Array, t: DataType, options: JsonOptions) -> pa.Array:
    """yyyy-MM-dd HH:mm:ss (or 'T' for ISO-8601), then only the fraction digits that are not
    trailing zeros; TIMESTAMP_LTZ is written in UTC with a 'Z'."""
    unit = arr.type.unit
    naive = arr.cast(pa.int64()).cast(pa.timestamp(unit))
    separator = "T" if options.timestamp_format == "ISO-8601" else " "
    suffix = "Z" if t.root == TIMESTAMP_LTZ else ""
    # Arrow's cast writes yyyy-MM-dd HH:mm:ss and the unit's fraction digits, zero padded, for
    # years 0-9999 (the others are patched below): one kernel instead of a dozen.
    text = pc.cast(naive, pa.string())
    base = pc.utf8_slice_codeunits(text, 0, 19)
    if separator != " ":
        base = pc.replace_substring(base, " ", separator, max_replacements=1)
    if unit != "s":
        digits = pc.utf8_rtrim(pc.utf8_slice_codeunits(text, 20, 29), characters="0")
        with_fraction = pc.binary_join_element_wise(base, digits, ".")
        text = pc.if_else(pc.equal(pc.utf8_length(digits), 0), base, with_fraction)
    else:
        text = base
    if suffix:
        text = pc.binary_join_element_wise(text, suffix, "")
    year = pc.year(naive)
    odd = pc.or_(pc.less(year, 0), pc.greater(year, 9999))
    per_ns = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}[unit]
    return _quoted(_patch(text, pc.fill_null(odd, False),
                          lambda v: _timestamp_text(v * per_ns, separator, suffix), arr.cast(pa.int64())))


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
    keys = _strings(arr.keys)
    values = pc.fill_null(encode_values(arr.items, t.children[1], options), NULL)
    entries = pc.binary_join_element_wise(keys, values, ":")
    joined = pc.binary_join(pa.ListArray.from_arrays(arr.offsets, entries), ",")
    return _restore_nulls(pc.binary_join_element_wise("{", joined, "}", ""), arr)


def _restore_nulls(text: pa.Array, arr: pa.Array) -> pa.Array:
    if arr.null_count == 0:
        return text
    return pc.if_else(arr.is_valid(), text, pa.scalar(None, pa.string()))


def _rows(columns: list[pa.Array], t: DataType, options: JsonOptions, length: int) -> pa.Array:
    """{"a":1,"b":null}: fields in declared order; with ignore-null-fields, null fields left out."""
    if not t.fields:
        return pa.array(["{}"] * length, pa.string())
    if not options.ignore_null_fields:  # every field is written: the whole row in one kernel call
        parts = []
        for i, (f, column) in enumerate(zip(t.fields, columns)):
            parts += [("{" if i == 0 else ",") + quote(f.name) + ":",
                      pc.fill_null(encode_values(column, f.type, options), NULL)]
        return pc.binary_join_element_wise(*parts, "}", "")
    pieces = []
    for f, column in zip(t.fields, columns):
        value = encode_values(column, f.type, options)
        pieces.append(pc.binary_join_element_wise("," + quote(f.name) + ":", value, ""))
    # Each piece carries its leading comma; omitted (null) pieces become "", the first comma goes.
    body = pc.binary_join_element_wise(*pieces, "", null_handling="replace", null_replacement="")
    return pc.binary_join_element_wise("{", pc.utf8_slice_codeunits(body, 1), "}", "")


def encode_values(arr: pa.Array, t: DataType, options: JsonOptions) -> pa.Array:
    """The JSON text of each value of `arr` (of Flink type `t`); null where the value is null."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    root = t.root
    if root == "BOOLEAN":
        return pc.if_else(arr, "true", "false")
    if root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return pc.cast(arr, pa.string())
    if root in ("FLOAT", "DOUBLE"):
        return _floating(arr, single=root == "FLOAT")
    if root == "DECIMAL":
        return _decimals(arr, options)
    if root in ("CHAR", "VARCHAR"):
        return _strings(arr)
    if root in ("BINARY", "VARBINARY"):
        return _binaries(arr)
    if root == "DATE":
        return _dates(arr)
    if root == "TIME":
        return _times(arr)
    if root in ("TIMESTAMP", TIMESTAMP_LTZ):
        return _timestamps(arr, t, options)
    if root == "ARRAY":
        return _lists(arr, t, options)
    if root == "MAP":
        return _maps(arr, t, options)
    if root == "ROW":
        children = [arr.field(i) for i in range(arr.type.num_fields)]
        return _restore_nulls(_rows(children, t, options, len(arr)), arr)
    raise ValueError(f"the json encoder does not handle {t.serializable()}")


def encode(batch: pa.RecordBatch, row_type: DataType, options: JsonOptions) -> pa.BinaryArray:
    """One message value per row, byte-identical to Flink's JsonRowDataSerializationSchema."""
    if batch.num_columns != len(row_type.fields):
        raise ValueError(f"batch has {batch.num_columns} columns, the row type {len(row_type.fields)}")
    text = _rows(batch.columns, row_type, options, batch.num_rows)
    return text.cast(pa.binary())
