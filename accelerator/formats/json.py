"""Flink's `json` format: which row types and options we reproduce exactly, the encoder and decoder.

`supported` is asked before a segment is accelerated; any reason it returns keeps the segment on
stock Flink. `encode` is the Arrow-side equivalent of Flink's JsonRowDataSerializationSchema,
`decode` of its JsonParserRowDataDeserializationSchema.
"""

from __future__ import annotations

from accelerator import flink_lines
from accelerator.formats import types
from accelerator.formats.json_decoder import DecodeResult, JsonDecoder, decode
from accelerator.formats.json_encoder import encode
from accelerator.formats.json_options import ENCODE_DECIMAL_AS_PLAIN_NUMBER, JsonOptions, OptionError, parse_options

__all__ = ["DecodeResult", "JsonDecoder", "JsonOptions", "decode", "encode", "parse_options", "supported"]

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


def _holds_decimal(t: types.DataType) -> bool:
    return t.root == "DECIMAL" or any(_holds_decimal(c) for c in t.children + tuple(f.type for f in t.fields))


def _plain_decimal_problem(f: types.Field, options: JsonOptions, direction: str, flink_version: str | None) -> str | None:
    """1.20's json format writes plain decimals without their trailing zeros; the sidecar writes 2.x's."""
    if (direction != "encode" or flink_version is None or not options.decimal_as_plain_number
            or flink_lines.json_plain_decimal_keeps_scale(flink_version) or not _holds_decimal(f.type)):
        return None
    return (f"{f.name}: Flink {flink_version}'s json format under '{ENCODE_DECIMAL_AS_PLAIN_NUMBER}' writes DECIMAL"
            " without its trailing zeros, which the accelerator does not reproduce (it writes 2.x's, with the"
            " column's scale)")


def supported(row_type: str | types.DataType, options: dict[str, str], direction: str = "encode",
              flink_version: str | None = None) -> str | None:
    """None if the json format with this row type and these options is reproduced exactly in
    `direction` ("encode" for sinks, "decode" for sources); otherwise the reason it is not (the
    operator then stays on stock Flink). `flink_version`: the release the table runs on, for the
    rules of a release (the planner's `JsonSupport` applies the same); None where it is not known
    (the sidecar's own check), which applies none."""
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
    for f in t.fields:
        problem = _type_problem(f.type, f.name) or _plain_decimal_problem(f, parsed, direction, flink_version)
        if problem:
            return problem
    return None
