"""Flink logical types as the Java side names them, and the Arrow types we hold them in.

The Java shim sends a row type as `LogicalType#asSerializableString()` text, e.g.
"ROW<`id` BIGINT NOT NULL, `price` DECIMAL(10, 2)>". `parse` reads exactly that grammar and
`DataType.serializable()` prints it back identically, so the two sides can check each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pyarrow as pa

from accelerator.formats import timestamps

#: Type roots whose text is the bare name.
SIMPLE = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE")
#: Type roots with one length/precision parameter.
SIZED = ("CHAR", "VARCHAR", "BINARY", "VARBINARY", "TIME", "TIMESTAMP")
#: Roots after parsing `TIMESTAMP(p) WITH [LOCAL] TIME ZONE`.
TIMESTAMP_LTZ = "TIMESTAMP_LTZ"
TIMESTAMP_TZ = "TIMESTAMP_TZ"


@dataclass(frozen=True)
class Field:
    name: str
    type: DataType
    description: str | None = None


@dataclass(frozen=True)
class DataType:
    """One Flink logical type: a root, its parameters and children, and whether NULL is allowed."""

    root: str
    nullable: bool = True
    params: tuple[int, ...] = ()
    children: tuple[DataType, ...] = ()  # ARRAY/MULTISET element; MAP key, value
    fields: tuple[Field, ...] = field(default=())  # ROW

    @property
    def precision(self) -> int:
        return self.params[0]

    @property
    def scale(self) -> int:
        return self.params[1]

    def serializable(self) -> str:
        """The text Flink's `asSerializableString()` prints for this type."""
        if self.root in SIMPLE:
            text = self.root
        elif self.root in SIZED:
            text = f"{self.root}({self.params[0]})"
        elif self.root == TIMESTAMP_LTZ:
            text = f"TIMESTAMP({self.params[0]}) WITH LOCAL TIME ZONE"
        elif self.root == TIMESTAMP_TZ:
            text = f"TIMESTAMP({self.params[0]}) WITH TIME ZONE"
        elif self.root == "DECIMAL":
            text = f"DECIMAL({self.params[0]}, {self.params[1]})"
        elif self.root in ("ARRAY", "MULTISET"):
            text = f"{self.root}<{self.children[0].serializable()}>"
        elif self.root == "MAP":
            text = f"MAP<{self.children[0].serializable()}, {self.children[1].serializable()}>"
        elif self.root == "ROW":
            text = "ROW<" + ", ".join(_field_text(f) for f in self.fields) + ">"
        else:
            raise ValueError(f"cannot print type root {self.root}")
        return text if self.nullable else text + " NOT NULL"


def _field_text(f: Field) -> str:
    text = "`" + f.name.replace("`", "``") + "` " + f.type.serializable()
    if f.description is not None:
        text += " '" + f.description.replace("'", "''") + "'"
    return text


class TypeSyntaxError(ValueError):
    """The text is not a type string this module understands."""


_TOKEN = re.compile(r"\s*(?:(`(?:[^`]|``)*`)|('(?:[^']|'')*')|([A-Za-z_][A-Za-z_0-9]*)|(\d+)|([<>(),]))")


def _tokens(text: str) -> list[str]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise TypeSyntaxError(f"unexpected text at {pos} in type {text!r}")
        out.append(m.group(m.lastindex))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token.upper() != expected):
            raise TypeSyntaxError(f"expected {expected or 'more'} at token {self.pos} in type {self.text!r}")
        self.pos += 1
        return token

    def number(self) -> int:
        token = self.take()
        if not token.isdigit():
            raise TypeSyntaxError(f"expected a number, got {token!r} in type {self.text!r}")
        return int(token)

    def type(self) -> DataType:
        name = self.take().upper()
        params: tuple[int, ...] = ()
        children: tuple[DataType, ...] = ()
        fields: tuple[Field, ...] = ()
        if name in SIMPLE:
            pass
        elif name in SIZED or name == "DECIMAL":
            self.take("(")
            params = (self.number(),)
            if name == "DECIMAL":
                self.take(",")
                params += (self.number(),)
            self.take(")")
            if name == "TIMESTAMP" and (self.peek() or "").upper() == "WITH":
                self.take("WITH")
                name = TIMESTAMP_TZ
                if (self.peek() or "").upper() == "LOCAL":
                    self.take("LOCAL")
                    name = TIMESTAMP_LTZ
                self.take("TIME")
                self.take("ZONE")
        elif name in ("ARRAY", "MULTISET"):
            self.take("<")
            children = (self.type(),)
            self.take(">")
        elif name == "MAP":
            self.take("<")
            children = (self.type(),)
            self.take(",")
            children += (self.type(),)
            self.take(">")
        elif name == "ROW":
            self.take("<")
            fields = (self.field(),)
            while self.peek() == ",":
                self.take(",")
                fields += (self.field(),)
            self.take(">")
        else:
            raise TypeSyntaxError(f"unknown type {name} in {self.text!r}")
        nullable = True
        if (self.peek() or "").upper() == "NOT":
            self.take("NOT")
            self.take("NULL")
            nullable = False
        return DataType(name, nullable, params, children, fields)

    def field(self) -> Field:
        name = self.take()
        if not name.startswith("`"):
            raise TypeSyntaxError(f"expected a `quoted` field name, got {name!r} in {self.text!r}")
        type_ = self.type()
        description = None
        if (self.peek() or "").startswith("'"):
            description = self.take()[1:-1].replace("''", "'")
        return Field(name[1:-1].replace("``", "`"), type_, description)


def parse(text: str) -> DataType:
    """Read one type written as Flink's `asSerializableString()` prints it."""
    parser = _Parser(text)
    result = parser.type()
    if parser.peek() is not None:
        raise TypeSyntaxError(f"unexpected {parser.peek()!r} after the type in {text!r}")
    return result


_ARROW_SIMPLE = {
    "BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(),
    "BIGINT": pa.int64(), "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "DATE": pa.date32(),
    "CHAR": pa.string(), "VARCHAR": pa.string(), "BINARY": pa.binary(), "VARBINARY": pa.binary(),
    "TIME": pa.time32("ms"),  # Flink holds TIME as milliseconds of the day, whatever the precision
}


def to_arrow(t: DataType) -> pa.DataType:
    """The Arrow type holding values of `t` exactly as Flink holds them."""
    if t.root in _ARROW_SIMPLE:
        return _ARROW_SIMPLE[t.root]
    if t.root == "DECIMAL":
        return pa.decimal128(t.precision, t.scale)
    if t.root in ("TIMESTAMP", TIMESTAMP_LTZ):
        return timestamps.ARROW_TYPE  # Flink's (millis, nanos of the milli) pair, see timestamps.py
    if t.root == "ARRAY":
        return pa.list_(to_arrow_field("element", t.children[0]))
    if t.root == "MAP":
        key, value = t.children
        # Arrow map keys cannot be null, so a null key (which JSON cannot carry) never reaches us.
        return pa.map_(pa.field("key", to_arrow(key), nullable=False), to_arrow_field("value", value))
    if t.root == "ROW":
        return pa.struct([to_arrow_field(f.name, f.type) for f in t.fields])
    raise ValueError(f"no Arrow type for {t.serializable()}")


def to_arrow_field(name: str, t: DataType) -> pa.Field:
    return pa.field(name, to_arrow(t), nullable=t.nullable)


def to_arrow_schema(row: DataType) -> pa.Schema:
    return pa.schema([to_arrow_field(f.name, f.type) for f in row.fields])


def asked_row_type(row_type: str | DataType, direction: str) -> tuple[DataType | None, str | None]:
    """The row type a format's `supported(row_type, options, direction)` is asked about, parsed,
    or the reason it cannot be read. `direction` is "encode" (sinks) or "decode" (sources)."""
    if direction not in ("encode", "decode"):
        raise ValueError(f"direction must be 'encode' or 'decode', not {direction!r}")
    try:
        return (parse(row_type) if isinstance(row_type, str) else row_type), None
    except TypeSyntaxError as e:
        return None, f"unreadable row type: {e}"
