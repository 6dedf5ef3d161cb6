"""The decoders under fuzz, one `FuzzTarget` per format: how our sidecar decodes one message and
how stock Flink's format does, both as a comparable `outcome` (rows, or a failure).

To fuzz another format (avro, protobuf, csv, ...): write `corpus/<format>/*.jsonl` (see
`corpus_files`, and `make_json_corpus.py` for an example generator), subclass `FuzzTarget` with
its row type, option sets, `ours` and `flinks`, and add it to `TARGETS`; test_decoder_fuzz.py then
runs it like json.
"""

from __future__ import annotations

import base64
import decimal
import math
import struct
import sys
from pathlib import Path

import pyarrow as pa

from accelerator.formats import FormatError, types

sys.path.insert(0, str(Path(__file__).parents[1] / "formats"))
from values import from_batch  # noqa: E402


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


FAILED = {"failed": True}


class FuzzTarget:
    format: str
    row_type: str
    option_sets: dict[str, dict[str, str]]

    def ours(self, options: dict[str, str], message: bytes | None) -> dict:
        """Our sidecar's decoder on one message: `rows_outcome(...)` plus "skipped" (0 or 1), or
        FAILED, or {"refused": reason} when it fails loudly because it cannot reproduce Flink."""
        raise NotImplementedError

    def flinks(self, options: dict[str, str], messages: list[bytes | None]) -> list[dict]:
        """Stock Flink's format on each message: `rows_outcome(...)` or FAILED."""
        raise NotImplementedError


class JsonTarget(FuzzTarget):
    format = "json"
    row_type = ("ROW<`auction` BIGINT, `price` DOUBLE, `name` VARCHAR(2147483647), `ok` BOOLEAN, `ts` TIMESTAMP(3), "
                "`dec` DECIMAL(10, 2), `tags` ARRAY<VARCHAR(2147483647)>, `r` ROW<`x` INT>>")
    option_sets = {
        "default": {},
        "ignore-parse-errors": {"json.ignore-parse-errors": "true"},
        "fail-on-missing-field": {"json.fail-on-missing-field": "true"},
        "iso-8601": {"json.timestamp-format.standard": "ISO-8601"},
    }

    def __init__(self):
        self._type = types.parse(self.row_type)
        self._oracles: dict = {}

    def ours(self, options, message):
        from accelerator.formats.json_decoder import UNREPRODUCIBLE_REMEDY, decode
        from accelerator.formats.json_options import parse_options
        try:
            result = decode(pa.array([message], pa.binary()), self._type, parse_options(options))
        except FormatError as e:
            return {"refused": e.reason} if e.remedy == UNREPRODUCIBLE_REMEDY else FAILED
        rows = from_batch(self._type, result.batch) + [None] * result.null_rows
        return {**rows_outcome(rows), "skipped": result.skipped}

    def flinks(self, options, messages):
        from accelerator.testing.flink_oracle import JsonDeserializer
        key = tuple(sorted(options.items()))
        if key not in self._oracles:
            self._oracles[key] = JsonDeserializer(self.row_type, options)
        decoded = self._oracles[key].deserialize(messages)
        return [FAILED if d.error is not None else rows_outcome(d.rows) for d in decoded]


TARGETS: dict[str, FuzzTarget] = {"json": JsonTarget()}
