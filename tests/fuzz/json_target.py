"""The json format under fuzz: our json_decoder against Flink's JsonRowDataDeserializationSchema."""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import json as json_format
from accelerator.formats import types
from fuzz_target import FuzzTarget, flink_outcomes, our_outcome


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
    mutated = ("default", "ignore-parse-errors")
    splices = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\"", b"\\", b"{", b"}", b"[", b"]", b",", b":", b"NaN",
               b"-", b"1e400", b"null", b"\\u", b"\\ud800", b" ", b"\n")

    def __init__(self):
        self._type = types.parse(self.row_type)
        self._oracles: dict = {}

    def supported(self, option_set):
        return json_format.supported(self.row_type, self.option_sets[option_set], "decode")

    def ours(self, option_set, message):
        from accelerator.formats.json_decoder import UNREPRODUCIBLE_REMEDY, decode
        from accelerator.formats.json_options import parse_options
        options = parse_options(self.option_sets[option_set])
        return our_outcome(self._type, lambda: decode(pa.array([message], pa.binary()), self._type, options),
                           UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing.flink_oracle import JsonDeserializer
        if option_set not in self._oracles:
            self._oracles[option_set] = JsonDeserializer(self.row_type, self.option_sets[option_set])
        return flink_outcomes(self._oracles[option_set].deserialize(messages))
