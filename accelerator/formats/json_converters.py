"""Flink's json decoder (the default, parser-based one) in Python, token for token.

`MessageDecoder.decode` gives, for one message, the rows Flink's deserializer emits (None for a
null row) or the reason it throws. It follows the same walk over parser tokens as Flink's
converters, because that walk, not the JSON's meaning, decides the result of odd messages:
duplicate keys count toward the number of fields expected (so later fields may go unread), a
BOOLEAN field given an object reads as false and leaves the parser inside that object, a bad
field under `json.ignore-parse-errors` becomes null and the parser carries on from wherever the
failure left it, anything after the first JSON value is never read.

Values come out in the value model shared with the Arrow builder: DATE days, TIME milliseconds,
TIMESTAMP nanoseconds since the epoch, DECIMAL `decimal.Decimal`, BINARY bytes, ROW tuple, ARRAY
list, MAP list of (key, value) in the order of the java.util.HashMap Flink collects the entries in.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal

from accelerator.formats import java_hash_map, java_parse, java_text, java_time, json_base64
from accelerator.formats import json_lexer as lex
from accelerator.formats.jackson_text import flink_string, has_lone_surrogate, read_as_utf16_or_32
from accelerator.formats.json_lexer import JsonFailure, Lexer, Unreproducible
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import TIMESTAMP_LTZ, DataType


@dataclass(frozen=True)
class Outcome:
    """What Flink's deserializer does with one message: the rows it emits, or why it throws."""

    rows: list
    failure: str | None = None  # why Flink throws (without json.ignore-parse-errors)
    swallowed: bool = False  # Flink threw and json.ignore-parse-errors hid it


# -- number values of number tokens ---------------------------------------------------------------

def _int_value(lx: Lexer, bits: int) -> int:
    """getIntValue/getLongValue: integers must fit; floats are range checked, then truncated
    (a long saturates: 9223372036854775808.0 reads as Long.MAX_VALUE)."""
    if lx.token is lex.VALUE_INT:
        value = int(lx.text)
        if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
            raise JsonFailure(f"numeric value ({lx.text}) out of range of {bits}-bit integer")
        return value
    d = float(lx.text)
    if d < -(1 << (bits - 1)) or d > (1 << (bits - 1)) - (0 if bits == 64 else 1):
        raise JsonFailure(f"numeric value ({lx.text}) out of range of {bits}-bit integer")
    return max(-(1 << (bits - 1)), min(int(d), (1 << (bits - 1)) - 1))


def _java(parse, text):
    try:
        return parse(text)
    except ValueError as e:
        raise JsonFailure(str(e)) from None


# -- a string field given an object or array: the parser's tree, printed back --------------------

_TREE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_TREE_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f]')


def _tree_quote(text: str) -> str:
    def escape(m: re.Match) -> str:
        c = m.group()
        return _TREE_ESCAPES.get(c) or f"\\u{ord(c):04X}"
    return '"' + _TREE_NEEDS_ESCAPE.sub(escape, text) + '"'


def _tree_number(lx: Lexer, big_decimals: bool) -> str:
    if lx.token is lex.VALUE_INT:
        return str(int(lx.text))
    if big_decimals:  # floats are read as BigDecimal when the row has a DECIMAL anywhere
        return java_text.big_decimal_to_string(java_text.strip_trailing_zeros(Decimal(lx.text)))
    d = float(lx.text)
    if math.isinf(d):
        return '"Infinity"' if d > 0 else '"-Infinity"'
    return java_text.double_to_string(d)


def _read_tree(lx: Lexer, big_decimals: bool) -> str:
    """The compact JSON text of the object or array at the current token (duplicate keys: the
    last value, at the first key's place). Iterative: documents may nest 1000 deep."""
    stack: list[tuple[dict | list, str | None]] = [({} if lx.token is lex.START_OBJECT else [], None)]
    while True:
        container, _ = stack[-1]
        token = lx.next_token()
        if isinstance(container, dict):
            if token is lex.END_OBJECT:
                text = "{" + ",".join(_tree_quote(k) + ":" + v for k, v in container.items()) + "}"
            elif token is lex.FIELD_NAME:
                stack[-1] = (container, lx.name)
                token = lx.next_token()
                text = None
            else:
                raise JsonFailure(f"unexpected token {token} while reading an object")
        elif token is lex.END_ARRAY:
            text = "[" + ",".join(container) + "]"
        else:
            text = None
        if text is None:  # a value starts at the current token
            if token is lex.START_OBJECT or token is lex.START_ARRAY:
                stack.append(({} if token is lex.START_OBJECT else [], None))
                continue
            text = _tree_scalar(lx, big_decimals)
        else:
            stack.pop()
            if not stack:
                return text
        parent, key = stack[-1]
        if isinstance(parent, dict):
            parent[key] = text
        else:
            parent.append(text)


def _tree_scalar(lx: Lexer, big_decimals: bool) -> str:
    token = lx.token
    if token is lex.VALUE_STRING:
        return _tree_quote(lx.get_text())
    if token is lex.VALUE_INT or token is lex.VALUE_FLOAT:
        return _tree_number(lx, big_decimals)
    if token in (lex.VALUE_TRUE, lex.VALUE_FALSE, lex.VALUE_NULL):
        return token
    raise JsonFailure(f"unexpected token {token} while reading a tree")


# -- converters -----------------------------------------------------------------------------------

class MessageDecoder:
    """Flink's runtime decoder for one row type and option set."""

    def __init__(self, row_type: DataType, options: JsonOptions):
        self.options = options
        self.big_decimals = _has_decimal(row_type)
        self.root = self._converter(row_type)

    def decode(self, message: bytes | None) -> Outcome:
        """One message through Flink's deserialize(message, collector)."""
        rows: list = []
        if not message:
            return Outcome(rows)
        if read_as_utf16_or_32(message):
            raise Unreproducible("the message's first bytes make Flink read it as UTF-16 or UTF-32")
        try:
            lx = Lexer(message)
            token = lx.next_token()
            if token is lex.START_ARRAY:
                while lx.next_token() is not lex.END_ARRAY:
                    if lx.token is None:
                        raise Unreproducible("Flink's decoder never finishes this top-level array")
                    rows.append(self.root(lx))
            elif token is lex.START_OBJECT:
                rows.append(self.root(lx))
            else:
                raise JsonFailure("no JSON object or array at the start of the message")
        except JsonFailure as e:
            if not self.options.ignore_parse_errors:
                return Outcome([], str(e))
            return Outcome(rows, swallowed=True)
        return Outcome(rows)

    # Every converter takes the lexer positioned on the value's first token.

    def _converter(self, t: DataType):
        return self._nullable(self._not_null_converter(t))

    def _nullable(self, convert):
        ignore = self.options.ignore_parse_errors

        def nullable(lx: Lexer):
            if lx.token is None or lx.token is lex.VALUE_NULL:
                return None
            try:
                return convert(lx)
            except JsonFailure:
                if not ignore:
                    raise
                return None
        return nullable

    def _not_null_converter(self, t: DataType):
        root = t.root
        if root == "BOOLEAN":
            return _boolean
        if root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
            return _integer_converter(root)
        if root == "DOUBLE":
            return _double
        if root == "FLOAT":
            return _float
        if root == "DECIMAL":
            return _decimal_converter(t.precision, t.scale)
        if root in ("CHAR", "VARCHAR"):
            big_decimals = self.big_decimals
            if not self.options.keep_lone_surrogates:
                return lambda lx: flink_string(_refuse_lone_surrogates(_java_string(lx, big_decimals)))
            return lambda lx: _string(lx, big_decimals)
        if root in ("BINARY", "VARBINARY"):
            return json_base64.read
        if root == "DATE":
            return lambda lx: _java(java_time.parse_date, _text(lx))
        if root == "TIME":
            return lambda lx: _java(java_time.parse_time, _text(lx))
        if root in ("TIMESTAMP", TIMESTAMP_LTZ):
            pattern, smart = _timestamp_format(root, self.options.timestamp_format)
            return lambda lx: _java(lambda s: java_time.parse_timestamp(s, pattern, smart), _text(lx))
        if root == "ARRAY":
            return self._array_converter(t.children[0])
        if root == "MAP":
            return self._map_converter(t.children[1])
        if root == "ROW":
            return self._row_converter(t)
        raise ValueError(f"the json decoder does not handle {t.serializable()}")

    def _array_converter(self, element: DataType):
        convert = self._converter(element)

        def array(lx: Lexer):
            if lx.token is not lex.START_ARRAY:
                raise JsonFailure("illegal JSON array data")
            out = []
            while lx.next_token() is not lex.END_ARRAY:
                if lx.token is None:
                    raise Unreproducible("Flink's decoder never finishes this array")
                out.append(convert(lx))
            return out
        return array

    def _map_converter(self, value_type: DataType):
        """Flink reads the entries into a `new HashMap<>()` keyed by BinaryStringData: a repeated
        key keeps its first place and takes the last value. Keys are equal as Java strings but
        hash by their UTF-8 bytes as Flink stores them (a lone surrogate as '?'), so the keys
        "\\ud800" and "?" are two entries that both read "?". Off the object's key tokens (after
        a value Flink's converter leaves unconsumed, such as a BOOLEAN given an array, or a bad
        one under json.ignore-parse-errors) the key converter reads whatever token it stands on,
        as Flink's does, and may read a null key."""
        big_decimals = self.big_decimals
        key = self._nullable(lambda lx: _java_string(lx, big_decimals))
        value = self._converter(value_type)

        def map_(lx: Lexer):
            if lx.token is not lex.START_OBJECT:
                raise JsonFailure("illegal JSON map data")
            keys, values = [], []
            while lx.next_token() is not lex.END_OBJECT:
                if lx.token is None:
                    raise Unreproducible("Flink's decoder never finishes this map")
                keys.append(key(lx))
                lx.next_token()
                values.append(value(lx))
            if None in keys:
                raise Unreproducible("Flink's decoder reads a null map key here, which the accelerator cannot hold")
            try:
                order = java_hash_map.iteration_order(keys, _binary_string_hash, java_hash_map.DEFAULT_CAPACITY)
            except java_hash_map.Unreproducible as e:
                raise Unreproducible(str(e)) from None
            if not self.options.keep_lone_surrogates:
                for k in keys:
                    _refuse_lone_surrogates(k)
            return [(flink_string(keys[i]), values[i]) for i in order]
        return map_

    def _row_converter(self, t: DataType):
        converters = [self._converter(f.type) for f in t.fields]
        index = {f.name: i for i, f in enumerate(t.fields)}
        arity = len(t.fields)
        fail_on_missing = self.options.fail_on_missing_field

        def row(lx: Lexer):
            if lx.token is not lex.START_OBJECT:
                raise JsonFailure("illegal JSON object data")
            values = [None] * arity
            seen = 0  # fields read, duplicates included: once all are read the rest is skipped
            lx.next_token()
            while lx.token is not lex.END_OBJECT:
                if seen >= arity:
                    _skip_to_next_field(lx)
                    continue
                name = lx.get_text()
                lx.next_token()
                i = index.get(name)
                if i is None:
                    _skip_to_next_field(lx)
                    continue
                try:
                    values[i] = converters[i](lx)
                except JsonFailure:
                    raise JsonFailure(f"failed to deserialize field '{name}'") from None
                lx.next_token()
                seen += 1
            if seen < arity and fail_on_missing:
                raise JsonFailure("some field is missing in the JSON data")
            return tuple(values)
        return row


def _skip_to_next_field(lx: Lexer) -> None:
    token = lx.token
    if token is None:
        raise JsonFailure("no current token while skipping a field")
    if token is lex.START_OBJECT or token is lex.START_ARRAY:
        depth = 1
        while depth > 0:
            token = lx.next_token()
            if token is lex.END_ARRAY or token is lex.END_OBJECT:
                depth -= 1
            elif token is lex.START_ARRAY or token is lex.START_OBJECT:
                depth += 1
            elif token is None:
                raise Unreproducible("Flink's decoder never finishes skipping this value")
    lx.next_token()


def _has_decimal(t: DataType) -> bool:
    return t.root == "DECIMAL" or any(_has_decimal(c) for c in t.children) or any(
        _has_decimal(f.type) for f in t.fields)


def _text(lx: Lexer) -> str:
    text = lx.get_text()
    if text is None:
        raise JsonFailure("no text at the current token")
    return text


def _boolean(lx: Lexer) -> bool:
    if lx.token is lex.VALUE_TRUE:
        return True
    if lx.token is lex.VALUE_FALSE:
        return False
    return java_parse.parse_boolean(java_parse.trim(_text(lx)))


def _integer_converter(root: str):
    bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[root]
    # TINYINT and SMALLINT read only integer tokens as numbers; INT and BIGINT also truncate floats.
    number_tokens = (lex.VALUE_INT,) if bits < 32 else (lex.VALUE_INT, lex.VALUE_FLOAT)

    def integer(lx: Lexer) -> int:
        if lx.token in number_tokens:
            value = _int_value(lx, 32 if bits < 32 else bits)
            if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
                raise JsonFailure(f"numeric value ({value}) out of range of {bits}-bit integer")
            return value
        return _java(lambda s: java_parse.parse_integer(s, bits), java_parse.trim(_text(lx)))
    return integer


def _double(lx: Lexer) -> float:
    if lx.token is lex.VALUE_FLOAT:
        return float(lx.text)
    return _java(java_parse.parse_double, java_parse.trim(_text(lx)))


def _float(lx: Lexer) -> float:
    return _java(java_parse.parse_float, lx.text if lx.token is lex.VALUE_FLOAT else java_parse.trim(_text(lx)))


def _decimal_converter(precision: int, scale: int):
    def decimal(lx: Lexer) -> Decimal | None:
        if lx.token is lex.VALUE_STRING:
            value = _java(java_parse.parse_big_decimal, java_parse.trim(_text(lx)))
        elif lx.token is lex.VALUE_INT or lx.token is lex.VALUE_FLOAT:
            value = Decimal(lx.text)
        else:
            raise JsonFailure(f"current token ({lx.token}) is not numeric")
        return java_parse.fit_decimal(value, precision, scale)
    return decimal


def _java_string(lx: Lexer, big_decimals: bool) -> str:
    """The Java string Flink's string converter makes of the current token."""
    if lx.token is lex.START_OBJECT or lx.token is lex.START_ARRAY:
        return _read_tree(lx, big_decimals)
    return _text(lx)


def _refuse_lone_surrogates(java: str) -> str:
    if has_lone_surrogate(java):
        raise Unreproducible("a string value holds a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape or"
                             " encoded surrogate bytes); stock Flink's json sink writes it back as an escape, the"
                             " accelerator can only hold it as '?'. Run this job without the accelerator")
    return java


def _string(lx: Lexer, big_decimals: bool) -> str:
    return flink_string(_java_string(lx, big_decimals))


def _binary_string_hash(java: str) -> int:
    """BinaryStringData.hashCode of a Java string: over the UTF-8 Flink stores it as."""
    return java_hash_map.binary_string_hash(flink_string(java))


def _timestamp_format(root: str, standard: str) -> tuple[re.Pattern, bool]:
    """The pattern and whether its resolver is the lenient ("smart") one."""
    if root == TIMESTAMP_LTZ:
        return (java_time.ISO_TIMESTAMP_LTZ if standard == "ISO-8601" else java_time.SQL_TIMESTAMP_LTZ), True
    if standard == "ISO-8601":
        return java_time.ISO_TIMESTAMP, False
    return java_time.SQL_TIMESTAMP, True
