"""The `json` format's table options, read the way Flink's JsonFormatFactory reads them."""

from __future__ import annotations

from dataclasses import dataclass

from accelerator.formats import option_values

PREFIX = "json."
FAIL_ON_MISSING_FIELD = "json.fail-on-missing-field"
IGNORE_PARSE_ERRORS = "json.ignore-parse-errors"
TIMESTAMP_FORMAT = "json.timestamp-format.standard"
MAP_NULL_KEY_MODE = "json.map-null-key.mode"
MAP_NULL_KEY_LITERAL = "json.map-null-key.literal"
ENCODE_DECIMAL_AS_PLAIN_NUMBER = "json.encode.decimal-as-plain-number"
ENCODE_IGNORE_NULL_FIELDS = "json.encode.ignore-null-fields"
DECODE_JSON_PARSER_ENABLED = "json.decode.json-parser.enabled"
KNOWN = (FAIL_ON_MISSING_FIELD, IGNORE_PARSE_ERRORS, TIMESTAMP_FORMAT, MAP_NULL_KEY_MODE,
         MAP_NULL_KEY_LITERAL, ENCODE_DECIMAL_AS_PLAIN_NUMBER, ENCODE_IGNORE_NULL_FIELDS,
         DECODE_JSON_PARSER_ENABLED)
TIMESTAMP_FORMATS = ("SQL", "ISO-8601")  # compared case-sensitively, as Flink does
MAP_NULL_KEY_MODES = ("FAIL", "DROP", "LITERAL")  # upper-cased first, as Flink does


class OptionError(ValueError):
    """An option Flink itself would reject when creating the format."""


@dataclass(frozen=True)
class JsonOptions:
    fail_on_missing_field: bool = False
    ignore_parse_errors: bool = False
    timestamp_format: str = "SQL"
    map_null_key_mode: str = "FAIL"
    map_null_key_literal: str = "null"
    decimal_as_plain_number: bool = False
    ignore_null_fields: bool = False
    json_parser_enabled: bool = True
    #: Not a Flink option: whether a string value may hold a lone UTF-16 surrogate, kept as the '?'
    #: Flink stores (True), or the message is refused (False). The sidecar's stage sets False where
    #: Flink would write the surrogate itself (its json sink keeps the decoded Java string).
    keep_lone_surrogates: bool = True
    #: Not a Flink option: the fields the stage reads (`accelerator.plans.read_fields`; None: all).
    #: The others are checked as strictly as Flink reads them, but decoded as nulls.
    read_fields: dict | None = None


def _boolean(options: dict[str, str], key: str, default: bool) -> bool:
    return option_values.boolean(options, key, default, OptionError)


def parse_options(options: dict[str, str]) -> JsonOptions:
    """Read the table's `json.*` options (full keys, string values, as in the DDL)."""
    unknown = sorted(k for k in options if k.startswith(PREFIX) and k not in KNOWN)
    if unknown:
        raise OptionError(f"unsupported json format options {unknown}; supported are {list(KNOWN)}")
    timestamp_format = options.get(TIMESTAMP_FORMAT, "SQL")
    if timestamp_format not in TIMESTAMP_FORMATS:
        raise OptionError(f"option {TIMESTAMP_FORMAT} must be one of {list(TIMESTAMP_FORMATS)}, "
                          f"not {timestamp_format!r}")
    mode = options.get(MAP_NULL_KEY_MODE, "FAIL").upper()
    if mode not in MAP_NULL_KEY_MODES:
        raise OptionError(f"option {MAP_NULL_KEY_MODE} must be one of {list(MAP_NULL_KEY_MODES)}, "
                          f"not {options[MAP_NULL_KEY_MODE]!r}")
    parsed = JsonOptions(
        fail_on_missing_field=_boolean(options, FAIL_ON_MISSING_FIELD, False),
        ignore_parse_errors=_boolean(options, IGNORE_PARSE_ERRORS, False),
        timestamp_format=timestamp_format,
        map_null_key_mode=mode,
        map_null_key_literal=options.get(MAP_NULL_KEY_LITERAL, "null"),
        decimal_as_plain_number=_boolean(options, ENCODE_DECIMAL_AS_PLAIN_NUMBER, False),
        ignore_null_fields=_boolean(options, ENCODE_IGNORE_NULL_FIELDS, False),
        json_parser_enabled=_boolean(options, DECODE_JSON_PARSER_ENABLED, True),
    )
    if parsed.fail_on_missing_field and parsed.ignore_parse_errors:
        raise OptionError(f"{FAIL_ON_MISSING_FIELD} and {IGNORE_PARSE_ERRORS} cannot both be true")
    return parsed
