"""Kafka message values -> Arrow rows, exactly as Flink's `protobuf` format decodes them.

Flink's PbRowDataDeserializationSchema parses each message with the generated class's parseFrom
and runs generated code that reads the row's fields from it:

- a field of a simple Flink type (BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, CHAR, VARCHAR, BINARY,
  VARBINARY) reads its value, default included, when `protobuf.read-default-values` is true or
  the top-level message's file is proto3; otherwise it is null unless the message has it;
- a ROW, ARRAY or MAP field reads its value (an unset message as its default instance, an empty
  list or map as empty) only when `protobuf.read-default-values` is true; otherwise an unset
  message, and an empty list or map, are null;
- an enum read as CHAR/VARCHAR is its Java constant's name ("UNRECOGNIZED" for a number a proto3
  enum does not declare), read as INT its number (an undeclared number fails the record);
- unsigned and fixed integers keep their bits as Java's signed int/long;
- a proto2 string with invalid UTF-8 decodes as `new String(bytes, UTF_8)` does (java_utf8),
  except as a map's key or value, which protobuf-java checks (the record is a parse error);
- a map becomes a java.util.HashMap filled in wire order, a repeated key keeping its first place
  and its last value, and iterates in that map's order.

A record Flink cannot read fails the job, or gives no row with `protobuf.ignore-parse-errors`.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError

from accelerator.formats import FormatError, java_hash_map, java_utf8
from accelerator.formats.avro_decoder import DecodeResult
from accelerator.formats.protobuf_options import IGNORE_PARSE_ERRORS, ProtobufOptions
from accelerator.formats.protobuf_schema import Schema, Unsupported, check, load
from accelerator.formats.protobuf_wire import non_canonical
from accelerator.formats.types import DataType, to_arrow_schema
from accelerator.formats.value_columns import column

REMEDY = (f"set '{IGNORE_PARSE_ERRORS}' = 'true' to skip such records as Flink would, or fix the"
          f" producer so it writes messages of the table's protobuf class")
UNREPRODUCIBLE_REMEDY = ("run this job without the accelerator ('accelerator.enabled' = 'false'), where stock"
                         " Flink decodes this record")
#: Flink types PbFormatUtils.isSimpleType calls simple: they follow the primitive default rule.
SIMPLE = ("BOOLEAN", "INT", "BIGINT", "FLOAT", "DOUBLE", "CHAR", "VARCHAR", "BINARY", "VARBINARY")
_UNSIGNED32 = (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32)
_UNSIGNED64 = (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64)


class Unreadable(ValueError):
    """Flink's generated code throws on this message (the record is a parse error)."""


class ProtobufDecoder:
    """Flink's protobuf deserializer for one row type and message."""

    def __init__(self, row_type: DataType, options: ProtobufOptions, schema: Schema | None = None):
        self.row_type = row_type
        self.options = options
        self.schema = schema or load(options.descriptor_set, options.message_name)
        check(self.schema, row_type, "decode")
        self.arrow_schema = to_arrow_schema(row_type)
        self.primitive_defaults = options.read_default_values or self.schema.proto3
        self._check_presence(self.schema.reading, row_type, "")

    def _check_presence(self, message, row: DataType, path: str) -> None:
        """Without default values Flink's code asks has<Field>(), which proto3 fields of implicit
        presence lack: Flink then fails to compile its converter."""
        for f in row.fields:
            fd = message.fields_by_name[f.name]
            where = f"{path}.{f.name}" if path else f.name
            if not self._reads_default(f.type) and not fd.is_repeated \
                    and not fd.has_presence:
                raise Unsupported(f"{where}: without read-default-values Flink's generated code asks for the"
                                  f" presence of a field that has none, and fails")
            t = f.type.children[0] if f.type.root == "ARRAY" else f.type
            if fd.message_type is not None and t.root == "ROW":
                self._check_presence(fd.message_type, t, where)
            if f.type.root == "MAP" and f.type.children[1].root == "ROW":
                self._check_presence(fd.message_type.fields_by_name["value"].message_type,
                                     f.type.children[1], where)

    def _reads_default(self, t: DataType) -> bool:
        return self.primitive_defaults if t.root in SIMPLE else self.options.read_default_values

    def decode(self, values: pa.Array) -> DecodeResult:
        rows, kept, skipped = [], [], 0
        cls = self.schema.reading_class
        for i, data in enumerate(values.to_pylist()):
            try:
                if data is None:
                    raise Unreadable("the record has no value (a null message; Flink's parser gets a null array)")
                odd = non_canonical(data, self.schema.reading)
                if odd is not None:
                    raise FormatError(i, f"this record holds {odd}, which protobuf-java and the accelerator's"
                                         f" parser may read differently; the accelerator does not decode it",
                                      UNREPRODUCIBLE_REMEDY)
                message = cls()
                message.ParseFromString(data)
                rows.append(self._row(message, self.row_type))
                kept.append(i)
            except (DecodeError, Unreadable, RuntimeError) as e:
                if self.options.ignore_parse_errors:
                    skipped += 1
                    continue
                raise FormatError(i, f"Flink's protobuf format cannot decode this record (Failed to deserialize"
                                     f" PB object: {e})", REMEDY) from None
        batch = pa.RecordBatch.from_arrays(
            [column([r[c] for r in rows], f.type) for c, f in enumerate(self.row_type.fields)],
            schema=self.arrow_schema)
        plain = len(kept) == len(values)
        return DecodeResult(batch, None if plain else pa.array(np.asarray(kept, np.int32), pa.int32()), skipped)

    def _row(self, message, row: DataType) -> tuple:
        out = []
        descriptor = message.DESCRIPTOR
        for f in row.fields:
            fd = descriptor.fields_by_name[f.name]
            repeated = fd.is_repeated
            if not self._reads_default(f.type):
                present = len(getattr(message, f.name)) > 0 if repeated else message.HasField(f.name)
                if not present:
                    out.append(None)
                    continue
            value = getattr(message, f.name)
            if f.type.root == "MAP":
                out.append(self._map(fd, value, f.type))
            elif repeated:
                out.append([self._single(fd, v, f.type.children[0]) for v in value])
            else:
                out.append(self._single(fd, value, f.type))
        return tuple(out)

    def _map(self, fd, entries, t: DataType) -> list:
        key_fd, value_fd = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        strings = [f.name for f in (key_fd, value_fd) if f.type == FieldDescriptor.TYPE_STRING]
        if any(isinstance(getattr(e, name), bytes) for name in strings for e in entries):
            raise Unreadable(f"field {fd.name}: a map entry's string is not UTF-8 (protobuf-java checks the strings"
                             f" of map entries even in proto2)")
        keys = [self._single(key_fd, e.key, t.children[0]) for e in entries]
        values = [self._single(value_fd, e.value, t.children[1]) for e in entries]
        order = java_hash_map.iteration_order(keys, _hash_of(t.children[0]), java_hash_map.DEFAULT_CAPACITY)
        return [(keys[i], values[i]) for i in order] if order else []

    def _single(self, fd, value, t: DataType):
        kind = fd.type
        if kind == FieldDescriptor.TYPE_MESSAGE:
            return self._row(value, t)
        if kind == FieldDescriptor.TYPE_ENUM:
            known = fd.enum_type.values_by_number.get(value)
            if t.root == "INT":
                if known is None:
                    raise Unreadable(f"field {fd.name}: enum number {value} is not declared (Java's getNumber()"
                                     f" throws on UNRECOGNIZED)")
                return value
            return "UNRECOGNIZED" if known is None else known.name
        if kind == FieldDescriptor.TYPE_STRING and isinstance(value, bytes):
            return java_utf8.decode(value)
        if kind in _UNSIGNED32 and value >= 1 << 31:
            return value - (1 << 32)
        if kind in _UNSIGNED64 and value >= 1 << 63:
            return value - (1 << 64)
        return value


def _hash_of(t: DataType):
    """The Java hashCode of a map key as Flink holds it (BinaryStringData, Integer, Long, Boolean)."""
    if t.root in ("CHAR", "VARCHAR"):
        return java_hash_map.binary_string_hash
    if t.root == "BOOLEAN":
        return lambda v: 1231 if v else 1237
    if t.root == "BIGINT":
        return lambda v: ((v & 0xFFFFFFFFFFFFFFFF) ^ ((v & 0xFFFFFFFFFFFFFFFF) >> 32)) & 0xFFFFFFFF
    return lambda v: v & 0xFFFFFFFF
