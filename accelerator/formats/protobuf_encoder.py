"""Arrow rows -> the exact bytes Flink's `protobuf` format writes for them.

Flink's PbRowDataSerializationSchema fills the generated class's builder from the row and writes
`build().toByteArray()`. So: a null field is left unset; of several non-null members of one
oneof the last in row order wins; a null ARRAY element or MAP value becomes the type's default
(0, false, empty bytes, the first declared enum constant, the empty message) or, for strings,
`protobuf.write-null-string-literal`; an enum is looked up by name (CHAR/VARCHAR) or number (INT)
and an unknown one becomes the enum's first declared constant; a MAP goes through a
java.util.HashMap keyed by String/Integer/Long/Boolean and is written in its iteration order.
protobuf-java then writes fields in field-number order: implicit-presence (proto3) fields only
when not the default (raw bits for floats, so -0.0 is written), packed repeated scalars as one
length-delimited run, map entries with both key and value, and negative int32/enum values as
ten-byte varints.
"""

from __future__ import annotations

import struct

import pyarrow as pa
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from accelerator.formats import java_hash_map
from accelerator.formats.protobuf_options import ProtobufOptions
from accelerator.formats.protobuf_schema import Schema, check, load
from accelerator.formats.types import DataType

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5
F = FieldDescriptor
_WIRE = {F.TYPE_DOUBLE: _I64, F.TYPE_FIXED64: _I64, F.TYPE_SFIXED64: _I64, F.TYPE_FLOAT: _I32,
         F.TYPE_FIXED32: _I32, F.TYPE_SFIXED32: _I32, F.TYPE_STRING: _LEN, F.TYPE_BYTES: _LEN,
         F.TYPE_MESSAGE: _LEN}
_M64 = 0xFFFFFFFFFFFFFFFF


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _tag(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


class Encoder:
    """Flink's protobuf serializer for one row type and message."""

    def __init__(self, row_type: DataType, options: ProtobufOptions, schema: Schema | None = None):
        self.schema = schema or load(options.descriptor_set, options.message_name)
        check(self.schema, row_type, "encode")
        self.row_type = row_type
        self.null_string = options.write_null_string_literal.encode("utf-8")

    def encode(self, batch: pa.RecordBatch | pa.Table) -> pa.BinaryArray:
        columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
        out = [self._message(self.schema.descriptor, self.row_type, tuple(c[r] for c in columns))
               for r in range(batch.num_rows)]
        return pa.array(out, pa.binary())

    def _message(self, descriptor: Descriptor, row: DataType, values) -> bytes:
        if isinstance(values, dict):
            values = tuple(values[f.name] for f in row.fields)
        chosen: dict[int, tuple] = {}  # field number -> (descriptor, Flink type, value)
        oneof_member: dict[str, int] = {}
        for f, value in zip(row.fields, values):
            if value is None:
                continue
            fd = descriptor.fields_by_name[f.name]
            oneof = fd.containing_oneof
            if oneof is not None and not _synthetic(fd):
                previous = oneof_member.get(oneof.full_name)
                if previous is not None:
                    del chosen[previous]
                oneof_member[oneof.full_name] = fd.number
            chosen[fd.number] = (fd, f.type, value)
        pieces = []
        for number in sorted(chosen):
            fd, t, value = chosen[number]
            pieces.append(self._field(fd, t, value))
        return b"".join(pieces)

    def _field(self, fd: FieldDescriptor, t: DataType, value) -> bytes:
        if t.root == "MAP":
            return self._map(fd, t, value)
        if fd.is_repeated:
            element = t.children[0]
            items = [self._default(fd, element) if v is None else v for v in value]
            if not items:
                return b""
            if fd.is_packed:
                body = b"".join(self._scalar(fd, element, v) for v in items)
                return _tag(fd.number, _LEN) + _varint(len(body)) + body
            return b"".join(self._tagged(fd, element, v) for v in items)
        if not fd.has_presence and self._is_default(fd, t, value):
            return b""
        return self._tagged(fd, t, value)

    def _map(self, fd: FieldDescriptor, t: DataType, entries) -> bytes:
        key_fd, value_fd = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        keys = [k for k, _ in entries]
        order = java_hash_map.iteration_order(keys, _java_hash(t.children[0]), java_hash_map.DEFAULT_CAPACITY)
        out = []
        for i in order:
            k, v = entries[i]
            v = self._default(value_fd, t.children[1]) if v is None else v
            body = self._tagged(key_fd, t.children[0], k) + self._tagged(value_fd, t.children[1], v)
            out.append(_tag(fd.number, _LEN) + _varint(len(body)) + body)
        return b"".join(out)

    def _tagged(self, fd: FieldDescriptor, t: DataType, value) -> bytes:
        return _tag(fd.number, _WIRE.get(fd.type, _VARINT)) + self._scalar(fd, t, value)

    def _scalar(self, fd: FieldDescriptor, t: DataType, v) -> bytes:
        kind = fd.type
        if kind == F.TYPE_MESSAGE:
            body = b"" if v is _EMPTY else self._message(fd.message_type, t, v)
            return _varint(len(body)) + body
        if kind in (F.TYPE_STRING, F.TYPE_BYTES):
            data = v.encode("utf-8") if isinstance(v, str) else bytes(v)
            return _varint(len(data)) + data
        if kind == F.TYPE_ENUM:
            return _varint(self._enum_number(fd, t, v) & _M64)
        if kind in (F.TYPE_INT32, F.TYPE_INT64, F.TYPE_UINT64):
            return _varint(v & _M64)
        if kind == F.TYPE_UINT32:
            return _varint(v & 0xFFFFFFFF)
        if kind == F.TYPE_BOOL:
            return b"\x01" if v else b"\x00"
        if kind == F.TYPE_SINT32:
            return _varint(((v << 1) ^ (v >> 31)) & 0xFFFFFFFF)
        if kind == F.TYPE_SINT64:
            return _varint(((v << 1) ^ (v >> 63)) & _M64)
        if kind in (F.TYPE_FIXED32, F.TYPE_SFIXED32):
            return struct.pack("<I", v & 0xFFFFFFFF)
        if kind in (F.TYPE_FIXED64, F.TYPE_SFIXED64):
            return struct.pack("<Q", v & _M64)
        if kind == F.TYPE_FLOAT:
            return struct.pack("<f", v)
        if kind == F.TYPE_DOUBLE:
            return struct.pack("<d", v)
        raise ValueError(f"no protobuf writer for field type {kind}")

    def _enum_number(self, fd: FieldDescriptor, t: DataType, v) -> int:
        enum = fd.enum_type
        if t.root == "INT":
            known = enum.values_by_number.get(v)
        else:
            known = enum.values_by_name.get(v)
        return (known or enum.values[0]).number

    def _is_default(self, fd: FieldDescriptor, t: DataType, v) -> bool:
        """protobuf-java skips an implicit-presence field holding its type's default."""
        kind = fd.type
        if kind == F.TYPE_MESSAGE:
            return False
        if kind == F.TYPE_ENUM:
            return self._enum_number(fd, t, v) == 0
        if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
            return self._scalar(fd, t, v).count(0) == (4 if kind == F.TYPE_FLOAT else 8)
        return not v

    def _default(self, fd: FieldDescriptor, t: DataType):
        """What Flink writes for a null element of a list or value of a map."""
        kind = fd.type
        if kind == F.TYPE_MESSAGE:
            return _EMPTY
        if kind == F.TYPE_STRING:
            return self.null_string
        if kind == F.TYPE_BYTES:
            return b""
        if kind == F.TYPE_ENUM:
            first = fd.enum_type.values[0]
            return first.number if t.root == "INT" else first.name
        if kind == F.TYPE_BOOL:
            return False
        return 0.0 if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE) else 0


_EMPTY = object()  # the default instance of a message type


def _synthetic(fd: FieldDescriptor) -> bool:
    """A proto3 `optional` field sits in a oneof of its own that no builder call clears."""
    oneof = fd.containing_oneof
    return oneof is not None and len(oneof.fields) == 1 and oneof.name == "_" + fd.name


def _java_hash(t: DataType):
    """The Java hashCode of a map key as Flink's writer holds it (String, Integer, Long, Boolean)."""
    if t.root in ("CHAR", "VARCHAR"):
        return java_hash_map.string_hash
    if t.root == "BOOLEAN":
        return lambda v: 1231 if v else 1237
    if t.root == "BIGINT":
        return lambda v: ((v & _M64) ^ ((v & _M64) >> 32)) & 0xFFFFFFFF
    return lambda v: v & 0xFFFFFFFF


def encode(batch: pa.RecordBatch | pa.Table, row_type: DataType, options: ProtobufOptions) -> pa.BinaryArray:
    """One message per row, in order."""
    return Encoder(row_type, options).encode(batch)
