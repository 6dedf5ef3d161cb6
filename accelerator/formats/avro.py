"""Flink's `avro` format (flink-avro 2.2.1): which row types and options we reproduce exactly,
the encoder and the decoder.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink (both directions take the same types). `encode` is the Arrow-side equivalent of
Flink's AvroRowDataSerializationSchema, `AvroDecoder` of its AvroRowDataDeserializationSchema
(one per deserializer: it carries state from batch to batch, as Flink's does from message to
message).
"""

from __future__ import annotations

from accelerator.formats import types
from accelerator.formats.avro_decoder import AvroDecoder, DecodeResult
from accelerator.formats.avro_encoder import encode
from accelerator.formats.avro_options import AvroOptions, OptionError, parse_options
from accelerator.formats.avro_schema import Unsupported, derive

__all__ = ["AvroDecoder", "AvroOptions", "DecodeResult", "derive", "encode", "parse_options", "supported"]


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode") -> str | None:
    """None if the avro format with this row type and these options is reproduced exactly in
    `direction` ("encode" for sinks, "decode" for sources); otherwise the reason it is not (the
    operator then stays on stock Flink)."""
    t, unreadable = types.asked_row_type(row_type, direction)
    if unreadable:
        return unreadable
    try:
        parsed = parse_options(options)
    except OptionError as e:
        return f"Flink rejects these avro options: {e}"
    if parsed.encoding != "binary":
        return "'avro.encoding' = 'json' (Avro's JSON encoding) is not reproduced by the accelerator"
    try:
        derive(t, parsed.legacy_timestamp_mapping)
    except Unsupported as e:
        return str(e)
    return None
