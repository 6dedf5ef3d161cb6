"""The json format under fuzz: our json_decoder against Flink's JsonRowDataDeserializationSchema.

Three row types: the scalar one (with a nested ROW and an ARRAY); the same without the ARRAY,
which the native fast path takes (`json_fast_path.applies`: no ARRAY, MAP or binary columns);
and the scalar one with a MAP, a VARBINARY and an ARRAY of MAPs of VARBINARY, which only the
exact path takes (MAP in java.util.HashMap order, base64 through the parser's getBinaryValue).
Each has option sets of its own, so every path is fuzzed."""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import json as json_format
from accelerator.formats import types
from fuzz_target import FuzzTarget, flink_outcomes, our_outcome, rows_of

SCALAR_ROW = ("ROW<`auction` BIGINT, `price` DOUBLE, `name` VARCHAR(2147483647), `ok` BOOLEAN, `ts` TIMESTAMP(3), "
              "`dec` DECIMAL(10, 2), `tags` ARRAY<VARCHAR(2147483647)>, `r` ROW<`x` INT>>")
FAST_ROW = SCALAR_ROW.replace(", `tags` ARRAY<VARCHAR(2147483647)>", "")
MAPS_AND_BYTES_ROW = SCALAR_ROW[:-1] + (", `m` MAP<VARCHAR(2147483647), INT>, `b` VARBINARY(2147483647), "
                                        "`am` ARRAY<MAP<VARCHAR(2147483647), VARBINARY(2147483647)>>>")

#: option set -> (row type, Flink options)
SETTINGS = {
    "default": (SCALAR_ROW, {}),
    "ignore-parse-errors": (SCALAR_ROW, {"json.ignore-parse-errors": "true"}),
    "fail-on-missing-field": (SCALAR_ROW, {"json.fail-on-missing-field": "true"}),
    "iso-8601": (SCALAR_ROW, {"json.timestamp-format.standard": "ISO-8601"}),
    "fast-path": (FAST_ROW, {}),
    "fast-path-ignore-parse-errors": (FAST_ROW, {"json.ignore-parse-errors": "true"}),
    "fast-path-strict-iso-8601": (FAST_ROW, {"json.fail-on-missing-field": "true",
                                             "json.timestamp-format.standard": "ISO-8601"}),
    "maps-and-bytes": (MAPS_AND_BYTES_ROW, {}),
    "maps-and-bytes-ignore-parse-errors": (MAPS_AND_BYTES_ROW, {"json.ignore-parse-errors": "true"}),
}


class JsonTarget(FuzzTarget):
    format = "json"
    row_type = SCALAR_ROW
    option_sets = {name: options for name, (_, options) in SETTINGS.items()}
    mutated = ("default", "ignore-parse-errors", "fast-path", "fast-path-ignore-parse-errors", "maps-and-bytes",
               "maps-and-bytes-ignore-parse-errors")
    splices = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\"", b"\\", b"{", b"}", b"[", b"]", b",", b":", b"NaN",
               b"-", b"1e400", b"null", b"\\u", b"\\ud800", b" ", b"\n",
               # base64 and map pieces: padding, escaped separators and '=', URL-safe characters, an entry
               b"=", b"QQ==", b"\\r\\n", b"\\u003d", b"_", b'"k":1,')

    def __init__(self):
        self._types = {name: types.parse(row_type) for name, (row_type, _) in SETTINGS.items()}
        self._oracles: dict = {}

    def row_type_of(self, option_set):
        return SETTINGS[option_set][0]

    def supported(self, option_set):
        return json_format.supported(self.row_type_of(option_set), self.option_sets[option_set], "decode")

    def ours(self, option_set, message):
        from accelerator.formats.json_decoder import UNREPRODUCIBLE_REMEDY, decode
        from accelerator.formats.json_options import parse_options
        t = self._types[option_set]
        options = parse_options(self.option_sets[option_set])
        return our_outcome(t, lambda: decode(pa.array([message], pa.binary()), t, options), UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing.flink_oracle import JsonDeserializer
        if option_set not in self._oracles:
            self._oracles[option_set] = JsonDeserializer(self.row_type_of(option_set), self.option_sets[option_set])
        return flink_outcomes(self._oracles[option_set].deserialize(messages))

    def native_rows(self, option_set, values):
        from accelerator.formats import json_fast_path
        from accelerator.formats.json_options import parse_options
        t = self._types[option_set]
        fast = json_fast_path.decode(values, t, parse_options(self.option_sets[option_set]))
        return None if fast is None else (fast.vouched.to_pylist(), rows_of(t, fast.batch))
