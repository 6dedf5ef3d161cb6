"""Flink's `csv` format (flink-csv 2.2.1): which row types and options we reproduce exactly, the
encoder and the decoder.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink. `encode` is the Arrow-side equivalent of Flink's CsvRowDataSerializationSchema,
`decode` of its CsvRowDataDeserializationSchema.
"""

from __future__ import annotations

from accelerator.formats import types
from accelerator.formats.csv_decoder import DecodeResult, decode
from accelerator.formats.csv_encoder import encode
from accelerator.formats.csv_options import CsvOptions, OptionError, parse_options

__all__ = ["CsvOptions", "DecodeResult", "decode", "encode", "parse_options", "supported"]

#: Column and array element types reproduced both ways: every text the decoder meets is read by a
#: model of Flink's parse of it (TIME only up to precision 3, the most Flink's csv format decodes).
_REPRODUCED = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR",
               "BINARY", "VARBINARY", "DATE", "TIME", "TIMESTAMP", types.TIMESTAMP_LTZ)


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode") -> str | None:
    """None if the csv format with this row type and these options is reproduced exactly in
    `direction` ("encode" for sinks, "decode" for sources); otherwise the reason it is not."""
    t, unreadable = types.asked_row_type(row_type, direction)
    if unreadable:
        return unreadable
    if t.root != "ROW":
        return f"the csv format needs a ROW type, got {t.serializable()}"
    try:
        parsed = parse_options(options)
    except OptionError as e:
        return f"csv options: {e}"
    if direction == "decode":
        if parsed.allow_comments:
            return "'csv.allow-comments' = 'true' is not accelerated when decoding"
        if parsed.escape_character is not None:
            return "'csv.escape-character' is not accelerated when decoding"
        if parsed.quote_character is None:
            return "'csv.disable-quote-character' = 'true' is not accelerated when decoding"
    for f in t.fields:
        reason = _type_problem(f.type, direction)
        if reason:
            return f"{f.name}: {reason}"
    return None


def _type_problem(t: types.DataType, direction: str, element: bool = False) -> str | None:
    """Why a column (or an array's element) of type `t` is not reproduced, or None."""
    if t.root == "ARRAY" and not element:
        # Flink's csv format refuses arrays of arrays or rows ("only simple types") itself.
        return _type_problem(t.children[0], direction, element=True)
    if t.root not in _REPRODUCED:
        return f"type {t.serializable()} is not accelerated in the csv format ({direction})"
    if direction == "decode" and t.root == "TIME" and t.precision > 3:
        return f"Flink's csv format does not decode {t.serializable()} (precision above 3)"
    return None
