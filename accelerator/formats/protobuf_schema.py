"""The message schema the `protobuf` format works with: the descriptor from the shim's
FileDescriptorSet, matched against the table's row type the way flink-protobuf 2.2.0 matches it.

Flink's PbSchemaValidationUtils pairs every row field with the message field of the same name
(row fields must exist; message fields may be left out): bool -> BOOLEAN, int32/uint32/sint32/
fixed32/sfixed32 -> INT, the 64-bit ones -> BIGINT, float -> FLOAT, double -> DOUBLE, string ->
CHAR/VARCHAR, bytes -> BINARY/VARBINARY, enum -> CHAR/VARCHAR (its name) or INT (its number),
message -> ROW, repeated -> ARRAY, map -> MAP. `Unsupported` names whatever Flink refuses or the
accelerator does not reproduce (see the `supported` checks below).

For reading, the descriptors are loaded a second time with every map entry turned into a plain
repeated message, so the parser keeps the entries in wire order with their repeated keys: Java
fills a LinkedHashMap in that order and Flink copies it into a java.util.HashMap, whose iteration
order only the keys' insertion order settles.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from accelerator.formats.types import DataType

_INT32 = (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_SINT32,
          FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_SFIXED32)
_INT64 = (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64)
#: The Flink type roots Flink accepts for each protobuf scalar type (PbSchemaValidationUtils).
_ROOTS = {
    FieldDescriptor.TYPE_BOOL: ("BOOLEAN",), FieldDescriptor.TYPE_FLOAT: ("FLOAT",),
    FieldDescriptor.TYPE_DOUBLE: ("DOUBLE",), FieldDescriptor.TYPE_STRING: ("CHAR", "VARCHAR"),
    FieldDescriptor.TYPE_BYTES: ("BINARY", "VARBINARY"),
    **{t: ("INT",) for t in _INT32}, **{t: ("BIGINT",) for t in _INT64},
    # Flink also accepts TINYINT, SMALLINT and BIGINT for enums, but its generated code then stores an
    # Integer where those types need a Byte/Short/Long (or fails to compile): left to stock Flink.
    FieldDescriptor.TYPE_ENUM: ("CHAR", "VARCHAR", "INT"),
}
#: Field names whose Java accessors Flink derives the same way protoc names them (no digit directly
#: before a letter, no doubled or trailing underscore) and that no protoc accessor rename touches.
_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*\Z")
_DIGIT_LETTER = re.compile(r"[0-9][a-z]")
_PROTOC_RENAMED = {"class", "cached_size", "serialized_size", "default_instance", "parser",
                   "initialized", "unknown_fields", "descriptor", "descriptor_for_type",
                   "all_fields", "parser_for_type", "default_instance_for_type", "type"}
_ACCESSOR_SUFFIXES = ("_count", "_list", "_map", "_value", "_bytes", "_or_builder", "_builder")


class Unsupported(ValueError):
    """Flink refuses this row type for this message, or the accelerator does not reproduce it."""


@dataclass(frozen=True)
class Schema:
    """The message to write (`descriptor`), the one to parse (`reading`: the same message with map
    entries as plain repeated messages) and the file-level syntax Flink checks."""

    descriptor: Descriptor
    reading: Descriptor
    reading_class: type
    proto3: bool


@functools.lru_cache(maxsize=32)
def load(descriptor_set: bytes, message_name: str) -> Schema:
    """The message `message_name` from a serialized FileDescriptorSet (loaded once per set and name)."""
    try:
        files = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set)
    except Exception as e:  # noqa: BLE001 - the protobuf runtime's DecodeError
        raise Unsupported(f"the descriptor set is not a serialized FileDescriptorSet: {e}") from None
    writing, reading = descriptor_pool.DescriptorPool(), descriptor_pool.DescriptorPool()
    syntax = {}
    try:
        for file in files.file:
            syntax[file.name] = file.syntax
            writing.Add(file)
            plain = descriptor_pb2.FileDescriptorProto()
            plain.CopyFrom(file)
            for message in plain.message_type:
                _drop_map_entries(message)
            reading.Add(plain)
        descriptor = writing.FindMessageTypeByName(message_name)
        read = reading.FindMessageTypeByName(message_name)
    except (KeyError, TypeError, ValueError) as e:
        raise Unsupported(f"message {message_name!r} cannot be loaded from the descriptor set: {e}") from None
    top_syntax = syntax.get(descriptor.file.name, "")
    for name, s in syntax.items():
        if s not in ("", "proto2", "proto3"):
            raise Unsupported(f"{name} uses syntax {s!r}; only proto2 and proto3 files are reproduced")
    return Schema(descriptor, read, message_factory.GetMessageClass(read), top_syntax == "proto3")


def _drop_map_entries(message: descriptor_pb2.DescriptorProto) -> None:
    if message.options.map_entry:
        message.options.ClearField("map_entry")
    for nested in message.nested_type:
        _drop_map_entries(nested)


def check(schema: Schema, row_type: DataType, direction: str) -> None:
    """Raise Unsupported unless Flink accepts `row_type` for the message and we reproduce it."""
    if row_type.root != "ROW":
        raise Unsupported(f"the protobuf format needs a ROW type, got {row_type.serializable()}")
    _check_message(schema.descriptor, row_type, "", direction)


def _check_message(message: Descriptor, row: DataType, path: str, direction: str) -> None:
    for f in row.fields:
        where = f"{path}.{f.name}" if path else f.name
        fd = message.fields_by_name.get(f.name)
        if fd is None:
            raise Unsupported(f"column {where} does not exist in protobuf message {message.full_name}")
        if not _NAME.match(f.name) or _DIGIT_LETTER.search(f.name) or f.name in _PROTOC_RENAMED:
            raise Unsupported(f"{where}: the accelerator only reproduces lower_snake_case field names whose"
                              f" Java accessors Flink and protoc name alike")
        if any(f.name.endswith(s) and f.name[:-len(s)] in message.fields_by_name for s in _ACCESSOR_SUFFIXES):
            raise Unsupported(f"{where}: protoc renames accessors of this field (its name extends another"
                              f" field's name by an accessor suffix)")
        if fd.type == FieldDescriptor.TYPE_GROUP:
            raise Unsupported(f"{where}: proto2 groups are not reproduced")
        if fd.is_required:
            raise Unsupported(f"{where}: required fields are not reproduced (Flink fails on messages"
                              f" missing them)")
        _check_field(fd, f.type, where, direction)


def _check_field(fd: FieldDescriptor, t: DataType, where: str, direction: str) -> None:
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        if t.root != "MAP":
            raise Unsupported(f"{where}: Flink expects a MAP for protobuf map field {fd.name}")
        key, value = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        _check_scalar(key, t.children[0], f"{where} key")
        if value.enum_type is not None and value.enum_type.is_closed:
            raise Unsupported(f"{where}: map values of a closed (proto2) enum are not reproduced")
        _check_single(value, t.children[1], f"{where} value", direction)
        return
    if fd.is_repeated:
        if t.root != "ARRAY":
            raise Unsupported(f"{where}: Flink expects an ARRAY for repeated protobuf field {fd.name}")
        _check_single(fd, t.children[0], f"{where}[]", direction)
        return
    _check_single(fd, t, where, direction)


def _check_single(fd: FieldDescriptor, t: DataType, where: str, direction: str) -> None:
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        if t.root != "ROW":
            raise Unsupported(f"{where}: Flink expects a ROW for protobuf message {fd.message_type.full_name}")
        _check_message(fd.message_type, t, where, direction)
        return
    _check_scalar(fd, t, where)


def _check_scalar(fd: FieldDescriptor, t: DataType, where: str) -> None:
    roots = _ROOTS.get(fd.type)
    if roots is None:
        raise Unsupported(f"{where}: protobuf field type {fd.type} is not reproduced")
    if t.root not in roots:
        raise Unsupported(f"{where}: Flink does not map protobuf type {_type_name(fd)} to {t.root}"
                          f" (only {', '.join(roots)})")
    if fd.enum_type is not None:
        numbers = [v.number for v in fd.enum_type.values]
        if len(set(numbers)) != len(numbers):
            raise Unsupported(f"{where}: enum {fd.enum_type.full_name} has aliases (allow_alias), which are"
                              f" not reproduced")


def _type_name(fd: FieldDescriptor) -> str:
    for name, value in vars(FieldDescriptor).items():
        if name.startswith("TYPE_") and value == fd.type:
            return name[5:].lower()
    return str(fd.type)
