"""Before anything is timed: our codecs must agree with Flink's on the benchmark's messages.

Flink's bytes are what Flink's own format wrote for the generated rows (`flink_side`). Our decoder
must read them back as exactly those rows, and our encoder must write exactly those bytes, both
from the generated rows and from what our decoder made of Flink's bytes (the round trip the
benchmark times). Any difference stops the benchmark: a fast codec that writes other bytes is not
a result.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from accelerator.bench.formats.codecs import Codec


class Mismatch(AssertionError):
    """Our codec's output differs from Flink's; names the format, the step and the first message."""


@dataclass(frozen=True)
class CheckResult:
    format: str
    messages: int
    decoded_rows_equal: bool
    encoded_bytes_equal: bool
    round_trip_bytes_equal: bool


def _first_difference(ours: pa.Array, flink: pa.Array) -> int | None:
    if len(ours) != len(flink):
        return min(len(ours), len(flink))
    differs = _differs(ours, flink)
    return pc.index(differs, True).as_py() if pc.any(differs).as_py() else None


def _differs(ours: pa.Array, flink: pa.Array) -> pa.BooleanArray:
    """Per row, whether the values differ (nulls equal nulls); structs (ROWs, timestamps) field by
    field, as Arrow has no equality kernel for them."""
    if pa.types.is_struct(ours.type):
        out = pc.not_equal(ours.is_null(), flink.is_null())
        for mine, theirs in zip(ours.flatten(), flink.flatten()):
            out = pc.or_(out, _differs(mine, theirs))
        return out
    both_null = pc.and_(pc.is_null(ours), pc.is_null(flink))
    return pc.invert(pc.or_(pc.fill_null(pc.equal(ours, flink), False), both_null))


def _same_bytes(fmt: str, step: str, ours: pa.Array, flink: pa.Array) -> None:
    at = _first_difference(ours.cast(pa.binary()), flink)
    if at is None:
        return
    got = ours[at].as_py() if at < len(ours) else "(no message)"
    want = flink[at].as_py() if at < len(flink) else "(no message)"
    raise Mismatch(f"{fmt} {step}: message {at} of {len(flink)} differs from Flink's bytes:\n"
                   f"  ours:  {got!r:.300}\n  Flink: {want!r:.300}\n"
                   f"fix the {fmt} encoder (tests/formats has the oracle tests) before timing it")


def check(fmt: str, codec: Codec, rows: pa.RecordBatch, flink_messages: pa.BinaryArray) -> CheckResult:
    """Raise Mismatch unless our decode and encode reproduce Flink's format on these messages."""
    decoded = codec.decode(flink_messages)
    if decoded.num_rows != rows.num_rows:
        raise Mismatch(f"{fmt} decode: {decoded.num_rows} rows from {rows.num_rows} of Flink's messages")
    for i, name in enumerate(rows.schema.names):
        at = _first_difference(decoded.column(i), rows.column(i))
        if at is not None:
            raise Mismatch(f"{fmt} decode: field {name!r} of message {at} is {decoded.column(i)[at]!r}, the"
                           f" generated row has {rows.column(i)[at]!r} (Flink's bytes: {flink_messages[at]!r:.300})")
    _same_bytes(fmt, "encode of the generated rows", codec.encode(rows), flink_messages)
    _same_bytes(fmt, "encode of the decoded rows", codec.encode(decoded), flink_messages)
    return CheckResult(fmt, len(flink_messages), True, True, True)
