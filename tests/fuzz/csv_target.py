"""The csv format under fuzz: our csv_decoder against Flink's CsvRowDataDeserializationSchema.

Option sets are the decoding settings the accelerator takes (`csv.supported`); comments, escape
characters and disabled quoting stay stock Flink, so they are not fuzzed here."""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import csv, types
from accelerator.formats.csv_decoder import UNREPRODUCIBLE_REMEDY
from fuzz_target import FuzzTarget, flink_outcomes, our_outcome


class CsvTarget(FuzzTarget):
    format = "csv"
    row_type = ("ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, "
                "`dec` DECIMAL(10, 2), `s` VARCHAR(2147483647), `c` CHAR(3)>")
    option_sets = {
        "default": {},
        "ignore-parse-errors": {"csv.ignore-parse-errors": "true"},
        "semicolon-quote-null": {"csv.field-delimiter": ";", "csv.quote-character": "'",
                                 "csv.null-literal": "N/A"},
        "tab-null-ignore": {"csv.field-delimiter": "\\t", "csv.null-literal": "\\N",
                            "csv.ignore-parse-errors": "true"},
    }
    splices = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b",", b";", b"\t", b'"', b'""', b"'",
               b"\n", b"\r", b" ", b"NaN", b"-Infinity", b"1e400", b"N/A", b"\\N", b"#")

    def __init__(self):
        self._type = types.parse(self.row_type)
        self._oracles: dict = {}

    def supported(self, option_set):
        return csv.supported(self.row_type, self.option_sets[option_set], "decode")

    def ours(self, option_set, message):
        options = csv.parse_options(self.option_sets[option_set])
        return our_outcome(self._type, lambda: csv.decode(pa.array([message], pa.binary()), self._type, options),
                           UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing.flink_oracle import CsvDeserializer
        if option_set not in self._oracles:
            self._oracles[option_set] = CsvDeserializer(self.row_type, self.option_sets[option_set])
        return flink_outcomes(self._oracles[option_set].deserialize(messages))
