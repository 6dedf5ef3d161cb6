"""Flink's `avro` format (flink-avro 2.2.1): which row types and options we reproduce exactly,
the encoder and the decoder.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink (both directions take the same types, but for a TIMESTAMP WITH LOCAL TIME ZONE in a
nested row, which Flink's decoder refuses). `encode` is the Arrow-side equivalent of
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
    if direction == "decode":
        nested = _nested_local_time_zone(t, "", top=True)
        if nested:
            return (f"{nested}: Flink's avro format does not decode TIMESTAMP WITH LOCAL TIME ZONE in a nested "
                    f"row (its decoder fails to start)")
    return None


def _nested_local_time_zone(t: types.DataType, path: str, top: bool) -> str | None:
    """The path of a TIMESTAMP WITH LOCAL TIME ZONE inside a nested row (Flink's avro decoder
    converts nested rows with converters that lack that type), or None."""
    if t.root == types.TIMESTAMP_LTZ and not top:
        return path
    if t.root == "ROW":
        for f in t.fields:
            found = _nested_local_time_zone(f.type, f"{path}.{f.name}" if path else f.name, top and not path)
            if found:
                return found
    for child in t.children:
        found = _nested_local_time_zone(child, f"{path}[]", False)
        if found:
            return found
    return None
