"""The `protobuf` format's table options, read the way flink-protobuf 2.2.0's PbFormatFactory
reads them, plus the two keys through which the shim hands the sidecar the message's schema.

Flink knows `protobuf.message-class-name` (required: a Java class the sidecar cannot load),
`protobuf.ignore-parse-errors`, `protobuf.read-default-values` (both default false) and
`protobuf.write-null-string-literal` (default ""); any other `protobuf.` key makes Flink reject
the table. The sidecar instead gets the compiled schema: DESCRIPTOR_SET, a base64 (standard
alphabet, padded) serialized google.protobuf.FileDescriptorSet holding the message's file and
everything it imports, and MESSAGE_NAME, the message's full protobuf name (package.Outer.Inner).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from accelerator.formats import option_values

PREFIX = "protobuf."
MESSAGE_CLASS_NAME = "protobuf.message-class-name"
IGNORE_PARSE_ERRORS = "protobuf.ignore-parse-errors"
READ_DEFAULT_VALUES = "protobuf.read-default-values"
WRITE_NULL_STRING_LITERAL = "protobuf.write-null-string-literal"
KNOWN = (MESSAGE_CLASS_NAME, IGNORE_PARSE_ERRORS, READ_DEFAULT_VALUES, WRITE_NULL_STRING_LITERAL)

#: Set by the shim, never by a table: the schema the sidecar decodes and encodes with.
DESCRIPTOR_SET = "accelerator.protobuf.descriptor-set"
MESSAGE_NAME = "accelerator.protobuf.message-name"


class OptionError(ValueError):
    """An option Flink itself would reject, or the sidecar's schema keys are missing or unreadable."""


@dataclass(frozen=True)
class ProtobufOptions:
    message_class_name: str
    descriptor_set: bytes
    message_name: str
    ignore_parse_errors: bool = False
    read_default_values: bool = False
    write_null_string_literal: str = ""


def _bool(options: dict[str, str], key: str) -> bool:
    return option_values.boolean(options, key, False, OptionError)


def parse_options(options: dict[str, str]) -> ProtobufOptions:
    """Read the table's `protobuf.*` options and the shim's schema keys (full keys, string values)."""
    unknown = sorted(k for k in options if k.startswith(PREFIX) and k not in KNOWN)
    if unknown:
        raise OptionError(f"unsupported protobuf format options {unknown}; supported are {list(KNOWN)}")
    if not options.get(MESSAGE_CLASS_NAME):
        raise OptionError(f"the protobuf format requires the option {MESSAGE_CLASS_NAME}")
    for key in (DESCRIPTOR_SET, MESSAGE_NAME):
        if not options.get(key):
            raise OptionError(f"the sidecar needs the message's schema under {key!r}; the shim sets it from"
                              f" the class named by {MESSAGE_CLASS_NAME}")
    try:
        descriptor_set = base64.b64decode(options[DESCRIPTOR_SET], validate=True)
    except (binascii.Error, ValueError) as e:
        raise OptionError(f"{DESCRIPTOR_SET} is not base64: {e}") from None
    return ProtobufOptions(
        message_class_name=options[MESSAGE_CLASS_NAME],
        descriptor_set=descriptor_set,
        message_name=options[MESSAGE_NAME],
        ignore_parse_errors=_bool(options, IGNORE_PARSE_ERRORS),
        read_default_values=_bool(options, READ_DEFAULT_VALUES),
        write_null_string_literal=options.get(WRITE_NULL_STRING_LITERAL, ""),
    )
