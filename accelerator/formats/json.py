"""Flink's `json` format: which row types and options we reproduce exactly, the encoder and decoder.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink. `encode` is the Arrow-side equivalent of Flink's JsonRowDataSerializationSchema,
`decode` of its JsonParserRowDataDeserializationSchema.
"""

from __future__ import annotations

from accelerator.formats import types
from accelerator.formats.json_decoder import DecodeResult, decode
from accelerator.formats.json_encoder import encode
from accelerator.formats.json_options import JsonOptions, OptionError, parse_options

__all__ = ["DecodeResult", "JsonOptions", "decode", "encode", "parse_options", "supported"]

_SCALARS = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR",
            "VARCHAR", "BINARY", "VARBINARY", "DATE", "TIME", "TIMESTAMP", types.TIMESTAMP_LTZ)


def _type_problem(t: types.DataType, path: str) -> str | None:
    if t.root in _SCALARS:
        return None
    if t.root == "ARRAY":
        return _type_problem(t.children[0], f"{path}[]")
    if t.root == "MAP":
        if t.children[0].root not in ("CHAR", "VARCHAR"):
            return f"{path}: Flink's json format only has string map keys"
        return _type_problem(t.children[1], f"{path}{{}}")
    if t.root == "ROW":
        for f in t.fields:
            problem = _type_problem(f.type, f"{path}.{f.name}" if path else f.name)
            if problem:
                return problem
        return None
    return f"{path}: type {t.serializable()} is not reproduced exactly by the accelerated json format"


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode") -> str | None:
    """None if the json format with this row type and these options is reproduced exactly in
    `direction` ("encode" for sinks, "decode" for sources); otherwise the reason it is not (the
    operator then stays on stock Flink)."""
    t, unreadable = types.asked_row_type(row_type, direction)
    if unreadable:
        return unreadable
    if t.root != "ROW":
        return f"the json format needs a ROW type, got {t.serializable()}"
    try:
        parsed = parse_options(options)
    except OptionError as e:
        return f"Flink rejects these json options: {e}"
    if direction == "decode" and not parsed.json_parser_enabled:
        return ("'json.decode.json-parser.enabled' = 'false' selects Flink's tree-based json decoder, "
                "which the accelerator does not reproduce")
    return _type_problem(t, "")
