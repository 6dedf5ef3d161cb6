"""The `avro` format's table options, read the way flink-avro 2.2.1's AvroFormatFactory reads them.

Its factory knows three options: `avro.encoding` (binary or json), `avro.timestamp_mapping.legacy`
(default true) and nothing else; `avro.codec` belongs to the filesystem's avro files, and any
other key makes Flink reject the table.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "avro."
ENCODING = "avro.encoding"
TIMESTAMP_MAPPING_LEGACY = "avro.timestamp_mapping.legacy"
KNOWN = (ENCODING, TIMESTAMP_MAPPING_LEGACY)
ENCODINGS = ("binary", "json")  # Flink matches the enum's names ignoring case


class OptionError(ValueError):
    """An option Flink itself would reject when creating the format."""


@dataclass(frozen=True)
class AvroOptions:
    encoding: str = "binary"
    legacy_timestamp_mapping: bool = True


def parse_options(options: dict[str, str]) -> AvroOptions:
    """Read the table's `avro.*` options (full keys, string values, as in the DDL)."""
    unknown = sorted(k for k in options if k.startswith(PREFIX) and k not in KNOWN)
    if unknown:
        raise OptionError(f"unsupported avro format options {unknown}; supported are {list(KNOWN)}")
    encoding = options.get(ENCODING, "binary")
    if encoding.lower() not in ENCODINGS:
        raise OptionError(f"option {ENCODING} must be one of {list(ENCODINGS)}, not {encoding!r}")
    legacy = options.get(TIMESTAMP_MAPPING_LEGACY, "true")
    if legacy.lower() not in ("true", "false"):
        raise OptionError(f"option {TIMESTAMP_MAPPING_LEGACY} must be true or false, not {legacy!r}")
    return AvroOptions(encoding=encoding.lower(), legacy_timestamp_mapping=legacy.lower() == "true")
