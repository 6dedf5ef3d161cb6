"""Writes the raw format's fuzz corpus (`corpus/raw/*.jsonl`). Deterministic: run it again after
adding a category and commit the files; the tests read only the files.

Every message is read under every column type raw_target.SETTINGS names, so each category holds
values of every width: a number's bytes are text (often not UTF-8) to a string column and a
wrong size to a number of another width.

    .cache/venv/bin/python tests/fuzz/make_raw_corpus.py
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import encode_parts, write  # noqa: E402
from make_json_corpus import BAD_UTF8  # noqa: E402

FLOAT_BITS = {"nan": 0x7FC00000, "signalling-nan": 0x7F800001, "negative-nan": 0xFFC00000,
              "nan-payload": 0x7FC0ABCD, "inf": 0x7F800000, "-inf": 0xFF800000, "-0": 0x80000000,
              "min-subnormal": 0x00000001, "max": 0x7F7FFFFF, "one": 0x3F800000}
DOUBLE_BITS = {"nan": 0x7FF8000000000000, "signalling-nan": 0x7FF0000000000001, "negative-nan": 0xFFF8000000000000,
               "nan-payload": 0x7FF800000000ABCD, "inf": 0x7FF0000000000000, "-inf": 0xFFF0000000000000,
               "-0": 0x8000000000000000, "min-subnormal": 1, "max": 0x7FEFFFFFFFFFFFFF, "one": 0x3FF0000000000000}


def sizes():
    yield "empty", b""
    yield "tombstone", None
    for n in range(1, 10):
        yield f"zeros-{n}", b"\x00" * n
        yield f"letters-{n}", b"abcdefghi"[:n]
    yield "zeros-16", b"\x00" * 16
    yield "letters-100", b"x" * 100


def numbers():
    for width in (1, 2, 4, 8):
        bits = 8 * width
        for name, v in (("min", -(1 << (bits - 1))), ("max", (1 << (bits - 1)) - 1), ("minus-one", -1),
                        ("one", 1), ("256", 256 % (1 << bits))):
            yield f"int{bits}-{name}", v.to_bytes(width, "big", signed=v < 0 or v >= 1 << (bits - 1))
    for name, v in FLOAT_BITS.items():
        yield f"float-{name}", struct.pack(">I", v)
    for name, v in DOUBLE_BITS.items():
        yield f"double-{name}", struct.pack(">Q", v)
    for b in (0x02, 0x7F, 0x80, 0xFF):
        yield f"boolean-byte-{b:02x}", bytes([b])


def text():
    for i, s in enumerate(["a", "\u00e9", "\u65e5\u672c", "\U0001F600", "\x00", "\ufeffx", "\ufffe", "\uffff",
                           "abc", "abcd", "a\u00e9", "\u00e9\u00e9", "line\nbreak", "tab\t", "\u0000\u0000\u0000",
                           "\U0010FFFF", "\u200b"]):
        yield f"utf8-{i}", s.encode("utf-8")
    yield "utf16-le", "abc".encode("utf-16-le")


def invalid_utf8():
    for i, b in enumerate(BAD_UTF8):
        yield f"bad-utf8-{i}", b"a" + b


def huge_values():
    yield encode_parts("huge-letters-1MB", (b"a", 1 << 20))
    yield encode_parts("huge-accents-16MB", (b"\xc3\xa9", 8 << 20))
    yield encode_parts("huge-zeros-1MB", (b"\x00", 1 << 20))
    yield encode_parts("huge-not-utf8-1MB", (b"\xff", 1 << 20))


CATEGORIES = {"sizes": sizes, "numbers": numbers, "text": text, "invalid-utf8": invalid_utf8,
              "huge-values": huge_values}


if __name__ == "__main__":
    write("raw", CATEGORIES)
