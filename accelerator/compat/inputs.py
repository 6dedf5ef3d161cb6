"""Turns a case's `input/NAME.jsonl` into the Kafka records to produce.

Per line, by the value format of the table on that topic:
- `json`: the line is the message value as it is (a malformed line is sent as it is);
- `raw`, `csv`: the line is a JSON string literal holding the value (`null`: a tombstone);
- `avro`, `protobuf`: the line is a JSON object of the row; stock Flink encodes it with the case's
  own table (see `encoding`), and a table with a message key gets the key Flink writes with it.
With `wrapped: [NAME]` each line is an envelope `{"value", "key", "partition", "timestamp",
"headers"}` (headers an object, or a list of `[name, value]` pairs to repeat a name); in it, a `json` value that is a JSON string is sent as that string's text (so
malformed messages can be written), any other JSON value is sent compactly serialised.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from accelerator.compat.case import Case, CaseError

LITERAL_FORMATS = {"raw", "csv"}
FLINK_ENCODED_FORMATS = {"avro", "protobuf"}


@dataclass(frozen=True)
class PendingRecord:
    """A record to produce; `row` is set instead of `value` when Flink must encode it first."""

    value: bytes | None
    row: dict | None = None
    key: bytes | None = None
    partition: int | None = None
    timestamp: int | None = None
    headers: tuple[tuple[str, bytes | None], ...] = ()


def records(case: Case, topic: str) -> list[PendingRecord]:
    file = case.inputs[topic]
    fmt = case.formats[topic]
    if fmt not in {"json"} | LITERAL_FORMATS | FLINK_ENCODED_FORMATS:
        raise CaseError(f"{file}: inputs for format {fmt!r} are not supported by the runner yet")
    out = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            if topic in case.wrapped:
                out.append(_from_envelope(json.loads(line), fmt))
            else:
                out.append(_from_value_text(line, fmt))
        except (ValueError, TypeError, KeyError) as error:
            raise CaseError(f"{file}:{number}: {error}") from None
    return out


def _from_value_text(line: str, fmt: str) -> PendingRecord:
    if fmt == "json":
        return PendingRecord(value=line.encode("utf-8"))
    decoded = json.loads(line)
    if fmt in FLINK_ENCODED_FORMATS:
        return _flink_row(decoded)
    return PendingRecord(value=_literal(decoded))


def _from_envelope(envelope: dict, fmt: str) -> PendingRecord:
    unknown = set(envelope) - {"value", "key", "partition", "timestamp", "headers"}
    if unknown:
        raise ValueError(f"unknown envelope fields {sorted(unknown)}")
    value = envelope.get("value")
    if fmt == "json":
        base = PendingRecord(value=None if value is None else (
            value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        ).encode("utf-8"))
    elif fmt in FLINK_ENCODED_FORMATS:
        base = _flink_row(value)
    else:
        base = PendingRecord(value=_literal(value))
    headers = envelope.get("headers") or {}
    # An object, or a list of [name, value] pairs: a header name more than once, in that order.
    pairs = headers.items() if isinstance(headers, dict) else (tuple(pair) for pair in headers)
    headers = tuple((k, None if v is None else str(v).encode("utf-8")) for k, v in pairs)
    key = envelope.get("key")
    return PendingRecord(value=base.value, row=base.row, key=None if key is None else key.encode("utf-8"),
                         partition=envelope.get("partition"), timestamp=envelope.get("timestamp"),
                         headers=headers)


def _literal(decoded) -> bytes | None:
    if decoded is None:
        return None
    if not isinstance(decoded, str):
        raise ValueError(f"expected a JSON string literal, got {type(decoded).__name__}")
    return decoded.encode("utf-8")


def _flink_row(decoded) -> PendingRecord:
    if not isinstance(decoded, dict):
        raise ValueError(f"expected a JSON object of the row, got {type(decoded).__name__}")
    return PendingRecord(value=None, row=decoded)
