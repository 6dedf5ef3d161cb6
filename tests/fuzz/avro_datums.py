"""Avro binary encoding written by hand, for the avro fuzz corpus: valid datums of the fuzz row
types field by field (so one field can be replaced by hostile bytes), and the primitives to
write those bytes (Avro 1.11 specification, "Binary Encoding")."""

from __future__ import annotations

import struct


def long_(n: int) -> bytes:
    """A zig-zag varint (Avro int and long)."""
    z = ((n << 1) ^ (n >> 63)) & ((1 << 64) - 1)
    out = bytearray()
    while z >= 0x80:
        out.append(z & 0x7F | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def string(data: bytes) -> bytes:
    return long_(len(data)) + data


def some(payload: bytes) -> bytes:
    """The value branch (1) of a nullable type's union [null, T]."""
    return b"\x02" + payload


NULL = b"\x00"


def float32(x: float) -> bytes:
    return struct.pack("<f", x)


def float64(x: float) -> bytes:
    return struct.pack("<d", x)


def decimal(unscaled: int) -> bytes:
    """DECIMAL as Avro bytes: the unscaled value, big-endian two's complement, shortest form."""
    size = max(1, (unscaled.bit_length() + 8) // 8)
    return string(unscaled.to_bytes(size, "big", signed=True))


def array(items: list[bytes]) -> bytes:
    return (long_(len(items)) + b"".join(items) if items else b"") + b"\x00"


def map_(entries: list[tuple[bytes, bytes]]) -> bytes:
    return (long_(len(entries)) + b"".join(string(k) + v for k, v in entries) if entries else b"") + b"\x00"


def main_fields() -> dict[str, bytes]:
    """A valid datum of avro_target.MAIN, field by field in schema order (nullable ones as unions)."""
    return {
        "id": long_(1001),
        "ok": some(b"\x01"),
        "i": some(long_(-42)),
        "ti": some(long_(7)),
        "si": some(long_(-300)),
        "f": some(float32(1.5)),
        "d": some(float64(-2.25)),
        "dec": some(decimal(1234)),
        "s": some(string("caf\u00e9".encode())),
        "b": some(string(b"\x00\xff")),
        "dt": some(long_(20_454)),
        "t": some(long_(45_296_789)),
        "ts": some(long_(1_767_225_601_250)),
        "tags": some(array([some(string(b"a")), NULL, some(string(b"bc"))])),
        "r": some(some(long_(7)) + some(string(b"y"))),
    }


def main(**replaced: bytes) -> bytes:
    """The valid MAIN datum with some fields' bytes replaced."""
    fields = main_fields()
    unknown = set(replaced) - set(fields)
    if unknown:
        raise KeyError(f"no such fields in the MAIN datum: {sorted(unknown)}")
    fields.update(replaced)
    return b"".join(fields.values())


def maps_fields() -> dict[str, bytes]:
    """A valid datum of avro_target.MAPS, field by field."""
    return {
        "id": long_(1),
        "m": some(map_([(b"k", some(long_(2))), (b"caf\xc3\xa9", NULL)])),
        "mm": some(map_([(b"outer", some(map_([(b"in", some(string(b"v")))])))])),
    }


def maps(**replaced: bytes) -> bytes:
    fields = maps_fields()
    fields.update(replaced)
    return b"".join(fields.values())
