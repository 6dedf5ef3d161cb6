"""Writes the protobuf format's fuzz corpus (`corpus/protobuf/*.jsonl`). Deterministic (random
bytes come from a seeded generator): run it again after adding a category and commit the files;
the tests read only the files.

Messages are written by hand on the wire (protobuf encoding spec) for the kitchen-sink message
acc.kitchen3.All (tests/formats/protos/kitchen3.proto), field by field, so any field can carry
hostile bytes; protobuf_target also reads them as acc.kitchen2.All.

    .cache/venv/bin/python tests/fuzz/make_protobuf_corpus.py
"""

from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import encode_parts, random_messages, write  # noqa: E402
from make_json_corpus import BAD_UTF8  # noqa: E402

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5


def varint(n: int) -> bytes:
    """Base-128 varint; a negative number as its 64-bit two's complement (ten bytes)."""
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def tag(number: int, wire: int) -> bytes:
    return varint(number << 3 | wire)


def vfield(number: int, value: int) -> bytes:
    return tag(number, VARINT) + varint(value)


def lfield(number: int, payload: bytes) -> bytes:
    return tag(number, LEN) + varint(len(payload)) + payload


def zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def fields() -> dict[str, bytes]:
    """A valid acc.kitchen3.All, field by field in number order."""
    inner = vfield(1, 5) + lfield(2, b"in") + vfield(3, 1)
    return {
        "f_double": tag(1, I64) + struct.pack("<d", 1.5), "f_float": tag(2, I32) + struct.pack("<f", -2.5),
        "f_int": vfield(3, -42), "f_long": vfield(4, 1 << 40), "f_uint": vfield(5, 4_000_000_000),
        "f_ulong": vfield(6, 2**64 - 1), "f_sint": vfield(7, zigzag(-5)), "f_slong": vfield(8, zigzag(-(1 << 40))),
        "f_fixed": tag(9, I32) + b"\xff\xff\xff\xff", "f_fixed_long": tag(10, I64) + struct.pack("<Q", 2**63 + 5),
        "f_sfixed": tag(11, I32) + struct.pack("<i", -7), "f_sfixed_long": tag(12, I64) + struct.pack("<q", -9),
        "f_bool": vfield(13, 1), "f_string": lfield(14, "caf\u00e9".encode()), "f_bytes": lfield(15, b"\x00\xff"),
        "f_enum": vfield(16, 2), "f_inner": lfield(17, inner),
        "r_int": lfield(18, varint(1) + varint(-1) + varint(300)),
        "r_string": lfield(19, b"a") + lfield(19, b"b"),
        "r_inner": lfield(20, vfield(1, 1)) + lfield(20, lfield(2, b"x")),
        "r_enum": lfield(21, varint(0) + varint(2)),
        "r_double": lfield(22, struct.pack("<dd", 1.0, math.inf)),
        "m_string": lfield(23, lfield(1, b"k") + vfield(2, 7)) + lfield(23, lfield(1, b"j") + vfield(2, 8)),
        "m_int": lfield(24, vfield(1, 3) + lfield(2, b"three")),
        "m_long": lfield(25, vfield(1, 9) + lfield(2, vfield(1, 1) + lfield(2, b"v"))),
        "m_bool": lfield(26, vfield(1, 1) + lfield(2, b"\x01")),
        "o_string": lfield(27, b"one"), "p_int": vfield(30, 0),
        "f_ts": lfield(31, vfield(1, 1_767_225_601) + vfield(2, 250_000_000)),
        "r_bool": lfield(32, b"\x01\x00"), "r_bytes": lfield(33, b"") + lfield(33, b"\x01"),
    }


NUMBERS = {"f_double": 1, "f_float": 2, "f_int": 3, "f_sint": 7, "f_fixed": 9, "f_bool": 13, "f_string": 14,
           "f_bytes": 15, "f_enum": 16, "f_inner": 17, "r_int": 18, "r_string": 19, "r_inner": 20, "r_double": 22,
           "m_string": 23, "m_long": 25, "o_string": 27, "o_long": 28, "p_int": 30, "f_ts": 31}
#: One well-formed value of each wire type, as it follows the tag.
WIRE_VALUES = {VARINT: varint(1), I64: bytes(range(8)), LEN: varint(2) + b"ab", I32: bytes(range(4))}


def valid(**replaced: bytes) -> bytes:
    parts = fields()
    unknown = set(replaced) - set(parts)
    if unknown:
        raise KeyError(f"no such fields: {sorted(unknown)}")
    parts.update(replaced)
    return b"".join(parts.values())


def truncated():
    message = valid()
    for end in range(len(message)):
        yield f"truncated-at-{end}", message[:end]


def wire_types():
    """Every field of each kind with every other wire type (a known number with the wrong wire
    type is an unknown field to protobuf-java), and the invalid wire types 6 and 7."""
    for name, number in NUMBERS.items():
        for wire in (VARINT, I64, LEN, I32):
            yield f"wire-{name}-{wire}", tag(number, wire) + WIRE_VALUES[wire]
        yield f"wire-{name}-group", tag(number, SGROUP) + vfield(1, 1) + tag(number, EGROUP)
        yield f"wire-{name}-end-group", tag(number, EGROUP)
        yield f"wire-{name}-6", tag(number, 6) + b"\x01"
        yield f"wire-{name}-7", tag(number, 7) + b"\x01"


def varints():
    for name, data in {
        "tag-cut": b"\x80", "tag-cut-2": valid() + b"\xf8\xff", "value-cut": b"\x18", "value-cut-2": b"\x18\x80\x80",
        "length-cut": b"\x72", "length-cut-2": b"\x72\x80", "ten-byte-value": b"\x18" + b"\xff" * 9 + b"\x01",
        "ten-byte-value-zero-end": b"\x18" + b"\x80" * 9 + b"\x00",
        "ten-byte-sint64-zero-end": b"\x40" + b"\xff" * 7 + b"\xfd\xff\x00",
        "eleven-byte-value": b"\x18" + b"\xff" * 10 + b"\x01",
        "tag-zero": b"\x00\x01", "tag-zero-after-fields": valid() + b"\x00", "field-number-zero": b"\x02\x00",
        "five-byte-tag": b"\x98\x80\x80\x80\x00\x05", "max-field-number": tag(2**29 - 1, VARINT) + b"\x01",
        "reserved-field-number": tag(19_000, VARINT) + b"\x01", "five-byte-length": b"\x72\x81\x80\x80\x80\x00a",
        "bool-2": vfield(13, 2), "bool-ten-byte": b"\x68" + b"\x80" * 9 + b"\x01",
        "int32-above": vfield(3, 2**32 + 5), "uint32-max": vfield(5, 2**32 - 1),
        "sint32-odd-high": vfield(7, 2**32 - 1), "sint64-min": vfield(8, zigzag(-2**63)),
    }.items():
        yield f"varint-{name}", data


def unknown_fields():
    for number in (34, 100, 12_345, 2**29 - 1):
        for wire, value in WIRE_VALUES.items():
            yield f"unknown-{number}-{wire}", valid() + tag(number, wire) + value
        yield f"unknown-{number}-group", tag(number, SGROUP) + vfield(1, 1) + lfield(2, b"x") + tag(number, EGROUP)
    for depth in (10, 99, 100, 101, 1000):
        yield encode_parts(f"unknown-groups-{depth}-deep", (tag(40, SGROUP), depth), (tag(40, EGROUP), depth))
        yield encode_parts(f"inner-unknown-groups-{depth}-deep",
                           (tag(17, LEN) + varint(2 * depth), 1), (tag(40, SGROUP), depth), (tag(40, EGROUP), depth))
    yield "unknown-group-unclosed", tag(40, SGROUP) + vfield(1, 1)
    yield "unknown-group-wrong-end", tag(40, SGROUP) + tag(41, EGROUP)
    yield "unknown-length-garbage", lfield(50, b"\xff\xff\xff")


def nested():
    inner = fields()["f_inner"][2:]
    for name, data in {
        "inner-cut": tag(17, LEN) + varint(10) + inner[:3],
        "inner-longer-than-message": tag(17, LEN) + varint(100) + inner,
        "inner-length-past-outer": lfield(17, tag(2, LEN) + varint(20) + b"ab"),
        "inner-wrong-type": lfield(17, tag(2, VARINT) + b"\x05"), "inner-empty": lfield(17, b""),
        "inner-bad-utf8": lfield(17, lfield(2, b"\xff")), "inner-enum-undeclared": lfield(17, vfield(3, 99)),
        "r-inner-cut": lfield(20, vfield(1, 1)) + tag(20, LEN) + varint(5) + b"\x08",
        "m-long-value-cut": lfield(25, vfield(1, 9) + tag(2, LEN) + varint(4) + b"\x08"),
        "m-long-entry-empty": lfield(25, b""), "m-string-key-only": lfield(23, lfield(1, b"k")),
        "m-string-value-only": lfield(23, vfield(2, 5)),
        "m-string-entry-unknown": lfield(23, lfield(1, b"k") + vfield(9, 1)),
        "m-string-repeated-key": (lfield(23, lfield(1, b"k") + vfield(2, 1))
                                  + lfield(23, lfield(1, b"k") + vfield(2, 2))),
        "m-string-colliding-keys": (lfield(23, lfield(1, b"Aa") + vfield(2, 1))
                                    + lfield(23, lfield(1, b"BB") + vfield(2, 2))),
        "m-bool-key-2": lfield(26, vfield(1, 2) + lfield(2, b"x")), "ts-cut": tag(31, LEN) + varint(6) + vfield(1, 1),
        "ts-negative-nanos": lfield(31, vfield(2, -1)), "oneof-all": lfield(27, b"s") + vfield(28, 5) + lfield(29, b""),
        "oneof-inner-then-string": lfield(29, vfield(1, 1)) + lfield(27, b"s"),
        "packed-cut": lfield(18, b"\x01\x80"),
        "packed-and-unpacked": vfield(18, 1) + lfield(18, b"\x02\x03") + vfield(18, 4),
        "packed-double-cut": lfield(22, b"\x00" * 12), "enum-undeclared": vfield(16, 99),
        "enum-negative": vfield(16, -3),
        "enum-negative-undeclared": vfield(16, -4), "r-enum-undeclared": lfield(21, varint(7)),
    }.items():
        yield f"nested-{name}", data


def invalid_utf8():
    for i, bad in enumerate(BAD_UTF8):
        text = b"a" + bad + b"b"
        yield f"bad-utf8-f-string-{i}", valid(f_string=lfield(14, text))
        yield f"bad-utf8-r-string-{i}", lfield(19, text)
        yield f"bad-utf8-map-key-{i}", lfield(23, lfield(1, text) + vfield(2, 1))
        yield f"bad-utf8-map-value-{i}", lfield(23, lfield(1, b"k") + lfield(2, text))
        yield f"bad-utf8-oneof-{i}", lfield(27, text)


def huge_values():
    n = 16 << 20
    yield encode_parts("huge-string-16MB", (tag(14, LEN) + varint(n), 1), (b"a", n))
    yield encode_parts("huge-bytes-16MB-cut", (tag(15, LEN) + varint(n + 1), 1), (b"\x00", n))
    yield encode_parts("huge-packed-50k", (tag(18, LEN) + varint(50_000), 1), (b"\x01", 50_000))
    yield encode_parts("huge-repeated-inner-5k", (lfield(20, vfield(1, 1)), 5_000))
    yield encode_parts("huge-map-10k-same-key", (lfield(23, lfield(1, b"k") + vfield(2, 1)), 10_000))
    yield "huge-map-500-keys", b"".join(lfield(23, lfield(1, f"k{i}".encode()) + vfield(2, i)) for i in range(500))
    for name, length in {"int-max": 2**31 - 1, "int-max-minus-1": 2**31 - 2}.items():
        yield f"huge-length-{name}", tag(14, LEN) + varint(length) + b"abc"
    yield "huge-length-above-int", tag(14, LEN) + varint(2**31) + b"abc"


def values():
    for name, bits in {"nan": 0x7FF8000000000000, "signalling-nan": 0x7FF0000000000001,
                       "negative-nan": 0xFFF8000000000000, "nan-payload": 0x7FF800000000ABCD,
                       "-0": 0x8000000000000000, "inf": 0x7FF0000000000000}.items():
        yield f"double-{name}", tag(1, I64) + struct.pack("<Q", bits)
    for name, bits in {"nan": 0x7FC00000, "signalling-nan": 0x7F800001, "-0": 0x80000000, "subnormal": 1}.items():
        yield f"float-{name}", tag(2, I32) + struct.pack("<I", bits)
    yield "r-double-nan", lfield(22, struct.pack("<Q", 0x7FF0000000000001) + struct.pack("<d", -0.0))
    yield "all-defaults-explicit", vfield(3, 0) + lfield(14, b"") + vfield(13, 0) + tag(1, I64) + bytes(8)
    yield "later-field-wins", vfield(3, 1) + vfield(3, 2) + lfield(14, b"x") + lfield(14, b"y")
    yield "inner-merged", lfield(17, vfield(1, 1)) + lfield(17, lfield(2, b"b"))
    yield "valid", valid()
    yield "valid-twice", valid() + valid()


def random_bytes():
    yield from random_messages(20261204, 60, valid(), "valid")


def structure():
    yield "empty", b""
    yield "tombstone", None
    for b in (0x00, 0x08, 0x0A, 0x0B, 0x0C, 0x7F, 0x80, 0xFF):
        yield f"one-byte-{b:02x}", bytes([b])
    yield "json-text", b'{"f_int":1}'
    yield "avro-bytes", b"\x02\x0e\x02\x06abc"


CATEGORIES = {"truncated": truncated, "wire-types": wire_types, "varints": varints, "unknown-fields": unknown_fields,
              "nested": nested, "invalid-utf8": invalid_utf8, "huge-values": huge_values, "values": values,
              "random": random_bytes, "structure": structure}


if __name__ == "__main__":
    write("protobuf", CATEGORIES)
