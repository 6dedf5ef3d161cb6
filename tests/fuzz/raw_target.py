"""The raw format under fuzz: our raw decoder against Flink's RawFormatDeserializationSchema, for
every column type the accelerator takes (each option set names its column type).

A string column refuses a value that is not UTF-8 by design: Flink keeps such bytes in its
string, Arrow strings cannot hold them (`raw._utf8`)."""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import raw, types
from fuzz_target import FuzzTarget, flink_outcomes, our_outcome

#: option set -> (column type, Flink options)
SETTINGS = {
    "varchar": ("VARCHAR(2147483647)", {}),
    "char": ("CHAR(3)", {"raw.charset": "utf8"}),
    "bytes": ("VARBINARY(2147483647)", {}),
    "binary": ("BINARY(4)", {}),
    "boolean": ("BOOLEAN", {}),
    "tinyint": ("TINYINT", {}),
    "smallint": ("SMALLINT", {}),
    "int": ("INT", {}),
    "bigint": ("BIGINT", {}),
    "float": ("FLOAT", {}),
    "double": ("DOUBLE", {}),
    "int-little-endian": ("INT", {"raw.endianness": "little-endian"}),
    "double-little-endian": ("DOUBLE", {"raw.endianness": "little-endian"}),
}


def _utf8(message: bytes) -> bool:
    try:
        message.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class RawTarget(FuzzTarget):
    format = "raw"
    option_sets = {name: options for name, (_, options) in SETTINGS.items()}
    mutated = ("varchar", "bytes", "boolean", "int", "double-little-endian")
    splices = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80", b"\x7f\xf8", b"\x7f\xc0\x00\x00", b"\x01")

    def __init__(self):
        self._types = {name: types.parse(self.row_type_of(name)) for name in SETTINGS}
        self._oracles: dict = {}

    def row_type_of(self, option_set):
        return f"ROW<`v` {SETTINGS[option_set][0]}>"

    def supported(self, option_set):
        return raw.supported(self.row_type_of(option_set), self.option_sets[option_set], "decode")

    def refused_by_design(self, option_set, message):
        return self._types[option_set].fields[0].type.root in raw.STRINGS and message is not None \
            and not _utf8(message)

    def ours(self, option_set, message):
        t = self._types[option_set]
        options = raw.parse_options(self.option_sets[option_set])
        return our_outcome(t, lambda: raw.decode(pa.array([message], pa.binary()), t, options),
                           raw.UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing.flink_oracle import RawDeserializer
        if option_set not in self._oracles:
            self._oracles[option_set] = RawDeserializer(self.row_type_of(option_set), self.option_sets[option_set])
        return flink_outcomes(self._oracles[option_set].deserialize(messages))
