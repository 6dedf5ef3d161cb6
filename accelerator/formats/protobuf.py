"""Flink's `protobuf` format (flink-protobuf 2.2.0): which row types and options we reproduce
exactly, the encoder and the decoder.

The message's schema reaches the sidecar as a serialized FileDescriptorSet plus the message's full
name (see protobuf_options). `supported` is asked before a segment is accelerated; any reason it
returns keeps the segment on stock Flink. `encode` is the Arrow-side equivalent of Flink's
PbRowDataSerializationSchema, `ProtobufDecoder` of its PbRowDataDeserializationSchema.
"""

from __future__ import annotations

from accelerator.formats import types
from accelerator.formats.avro_decoder import DecodeResult
from accelerator.formats.protobuf_decoder import ProtobufDecoder
from accelerator.formats.protobuf_encoder import Encoder, encode
from accelerator.formats.protobuf_options import (DESCRIPTOR_SET, MESSAGE_NAME, OptionError, ProtobufOptions,
                                                  parse_options)
from accelerator.formats.protobuf_schema import Unsupported, check, load

__all__ = ["DESCRIPTOR_SET", "MESSAGE_NAME", "DecodeResult", "Encoder", "ProtobufDecoder", "ProtobufOptions",
           "encode", "parse_options", "supported"]


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode") -> str | None:
    """None if the protobuf format with this row type, options and message is reproduced exactly
    in `direction` ("encode" for sinks, "decode" for sources); otherwise the reason it is not."""
    t, unreadable = types.asked_row_type(row_type, direction)
    if unreadable:
        return unreadable
    try:
        parsed = parse_options(options)
    except OptionError as e:
        return f"protobuf options: {e}"
    try:
        schema = load(parsed.descriptor_set, parsed.message_name)
        check(schema, t, direction)
        if direction == "decode":
            ProtobufDecoder(t, parsed, schema)
    except Unsupported as e:
        return str(e)
    return None
