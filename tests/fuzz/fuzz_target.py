"""What a format under fuzz provides (`FuzzTarget`) and the outcome both sides report for one
message: the rows it decoded to, a failure, or our decoder's loud refusal.

An option set is one setting of the format as a table would declare it: the Flink options and,
for formats whose corpus is read under several row types (raw's one column, protobuf's two
messages), the row type (`row_type_of`).
"""

from __future__ import annotations

import base64
import decimal
import math
import struct
import sys
from collections.abc import Callable
from pathlib import Path

from accelerator.formats import FormatError, types

sys.path.insert(0, str(Path(__file__).parents[1] / "formats"))
from values import from_batch  # noqa: E402

FAILED = {"failed": True}


def canonical(value):
    """A value of the oracle's value model as JSON-able data, compared bit for bit (NaN equals NaN,
    -0.0 differs from 0.0), so outcomes can cross from the decoding subprocess."""
    if isinstance(value, float):
        return {"f64": struct.pack("<d", value).hex()} if math.isnan(value) or value == 0 else {"f": repr(value)}
    if isinstance(value, decimal.Decimal):
        return {"dec": str(value)}
    if isinstance(value, (bytes, bytearray)):
        return {"bin": base64.b64encode(value).decode()}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    return value


def rows_outcome(rows: list) -> dict:
    """What a decoder emitted for one message: its non-null rows in order and its null rows."""
    return {"rows": canonical([r for r in rows if r is not None]), "nulls": sum(r is None for r in rows)}


def rows_of(row_type: types.DataType, batch) -> list:
    """An Arrow batch of our decoder as canonical rows, one per batch row."""
    return canonical(from_batch(row_type, batch))


def flink_outcomes(decoded: list) -> list[dict]:
    """`flink_oracle.Decoded` results as outcomes."""
    return [FAILED if d.error is not None else rows_outcome(d.rows) for d in decoded]


def our_outcome(row_type: types.DataType, decode: Callable[[], object], unreproducible_remedy: str) -> dict:
    """Run one of our decoders on one message: its rows (`from_batch` of the result's batch, plus
    its null rows) and how many messages it skipped, FAILED on a FormatError, or {"refused":
    reason} on a FormatError naming the decoder's `unreproducible_remedy` (run without the
    accelerator)."""
    try:
        result = decode()
    except FormatError as e:
        return {"refused": e.reason} if e.remedy == unreproducible_remedy else FAILED
    rows = from_batch(row_type, result.batch) + [None] * getattr(result, "null_rows", 0)
    return {**rows_outcome(rows), "skipped": result.skipped}


class FuzzTarget:
    """One format: its option sets, our decoder and Flink's, each on single messages.

    A format with an ignore-parse-errors option names the option set with it "ignore-parse-errors"
    and the same without it "default" (test_decoder_fuzz compares the two)."""

    format: str
    row_type: str
    option_sets: dict[str, dict[str, str]]
    #: Fragments the mutation test splices into messages: bytes that mean something to this format.
    splices: tuple[bytes, ...] = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80")

    #: The option sets the mutation test runs under (None: all of them).
    mutated: tuple[str, ...] | None = None

    def row_type_of(self, option_set: str) -> str:
        return self.row_type

    def mutated_option_sets(self) -> tuple[str, ...]:
        return tuple(self.option_sets) if self.mutated is None else self.mutated

    def supported(self, option_set: str) -> str | None:
        """Why the accelerator would leave this setting to stock Flink (then fuzzing it means
        nothing), or None."""
        raise NotImplementedError

    def refused_by_design(self, option_set: str, message: bytes | None) -> bool:
        """Whether our decoder refuses this message for a documented, format-wide reason (such
        refusals do not count against the fraction of the corpus it may refuse)."""
        return False

    def ours(self, option_set: str, message: bytes | None) -> dict:
        """Our sidecar's decoder on one message: `rows_outcome(...)` plus "skipped" (0 or 1), or
        FAILED, or {"refused": reason} when it fails loudly because it cannot reproduce Flink."""
        raise NotImplementedError

    def flinks(self, option_set: str, messages: list[bytes | None]) -> list[dict]:
        """Stock Flink's format on each message: `rows_outcome(...)` or FAILED."""
        raise NotImplementedError

    # -- whole batches (test_batch_fuzz) --

    def our_options(self, option_set: str) -> dict[str, str]:
        """The options the shim hands the sidecar for this setting (the Flink options, for most formats)."""
        return self.option_sets[option_set]

    def flink_batch(self, option_set: str, messages: list[bytes | None]) -> list[dict]:
        """Stock Flink's format on a batch, one deserializer over the messages in order as a
        Kafka source uses it (`flinks`, for formats whose deserializer keeps no state)."""
        return self.flinks(option_set, messages)

    def native_rows(self, option_set: str, values) -> tuple[list[int], list] | None:
        """The native kernel alone on a batch (pa.Array of message values): the messages it vouches
        for and their rows (canonical, one each), or None when this format or setting has none."""
        return None
