"""The protobuf format under fuzz: our ProtobufDecoder against flink-protobuf's
PbRowDataDeserializationSchema, on the kitchen-sink messages of tests/formats/protos (compiled
at test time, see accelerator.testing.protobuf_oracle). Most of the corpus is written for the
proto3 message; the proto2 option sets read the same bytes as the proto2 message, whose field
numbers overlap with other types and presence rules."""

from __future__ import annotations

import base64

import pyarrow as pa

from accelerator.formats import protobuf, types
from accelerator.formats.protobuf_decoder import UNREPRODUCIBLE_REMEDY
from fuzz_target import FuzzTarget, flink_outcomes, our_outcome
from test_protobuf_oracle import CLASSES, KITCHEN2, KITCHEN3, PROTOS

#: option set -> (protobuf message, row type, flink-protobuf options without the prefix)
SETTINGS = {
    "default": ("acc.kitchen3.All", KITCHEN3, {}),
    "ignore-parse-errors": ("acc.kitchen3.All", KITCHEN3, {"ignore-parse-errors": "true"}),
    "read-default-values": ("acc.kitchen3.All", KITCHEN3, {"read-default-values": "true"}),
    "proto2": ("acc.kitchen2.All", KITCHEN2, {}),
    "proto2-read-default-values": ("acc.kitchen2.All", KITCHEN2, {"read-default-values": "true"}),
}


class ProtobufTarget(FuzzTarget):
    format = "protobuf"
    option_sets = {name: {"protobuf.message-class-name": CLASSES[message],
                          **{f"protobuf.{k}": v for k, v in extra.items()}}
                   for name, (message, _, extra) in SETTINGS.items()}
    mutated = ("default", "ignore-parse-errors", "proto2")
    splices = (b"\x00", b"\xff", b"\x80", b"\xff\xff\xff\xff\x0f", b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01",
               b"\x72\x02\xff\x41", b"\x8a\x01\x7f", b"\x0b", b"\x0c", b"\xa3\x06", b"\xa4\x06", b"\x07", b"\x06",
               b"\xed\xa0\x80", b"\xc3")

    def __init__(self):
        self._types = {name: types.parse(row_type) for name, (_, row_type, _) in SETTINGS.items()}
        self._compiled = None
        self._decoders: dict = {}
        self._oracles: dict = {}

    def compiled(self):
        if self._compiled is None:
            from accelerator.testing import protobuf_oracle
            self._compiled = protobuf_oracle.compile_protos(PROTOS, ["kitchen3.proto", "kitchen2.proto"])
        return self._compiled

    def row_type_of(self, option_set):
        return SETTINGS[option_set][1]

    def our_options(self, option_set) -> dict[str, str]:
        """The Flink options plus the schema keys the shim hands the sidecar."""
        return {**self.option_sets[option_set],
                protobuf.DESCRIPTOR_SET: base64.b64encode(self.compiled().descriptor_set).decode(),
                protobuf.MESSAGE_NAME: SETTINGS[option_set][0]}

    def supported(self, option_set):
        return protobuf.supported(self.row_type_of(option_set), self.our_options(option_set), "decode")

    def ours(self, option_set, message):
        if option_set not in self._decoders:
            self._decoders[option_set] = protobuf.ProtobufDecoder(
                self._types[option_set], protobuf.parse_options(self.our_options(option_set)))
        decoder = self._decoders[option_set]
        return our_outcome(self._types[option_set], lambda: decoder.decode(pa.array([message], pa.binary())),
                           UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing import protobuf_oracle
        if option_set not in self._oracles:
            self._oracles[option_set] = protobuf_oracle.ProtobufDeserializer(
                self.compiled(), self.row_type_of(option_set), self.option_sets[option_set])
        return flink_outcomes(self._oracles[option_set].deserialize(messages))
