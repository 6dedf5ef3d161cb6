"""Writes the avro format's fuzz corpus (`corpus/avro/*.jsonl`). Deterministic (random bytes come
from a seeded generator): run it again after adding a category and commit the files; the tests
read only the files.

Messages are schemaless Avro datums of avro_target.MAIN (the maps category: of avro_target.MAPS),
built field by field (`avro_datums`) so one field at a time can hold hostile bytes. Lengths and
counts stay either small or beyond Avro's limits (2^31 - 9): a length in between makes Flink's
reader allocate that much before it finds the message too short.

    .cache/venv/bin/python tests/fuzz/make_avro_corpus.py
"""

from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from avro_datums import (NULL, array, decimal, float32, float64, long_, main, main_fields, map_, maps,  # noqa: E402
                         some, string)
from corpus_files import encode_parts, random_messages, write  # noqa: E402
from make_json_corpus import BAD_UTF8  # noqa: E402

NULLABLE = [name for name in main_fields() if name != "id"]
#: Union branches other than 0 (null) and 1 (the value), and ways of writing 0 and 1 at length.
BRANCHES = {"2": long_(2), "minus-1": long_(-1), "3": long_(3), "100": long_(100), "int-max": long_(2**31 - 1),
            "above-int": long_(2**31), "padded-1": b"\x82\x00", "padded-0": b"\x80\x80\x80\x80\x00",
            "six-byte-int": b"\x82\x80\x80\x80\x80\x00"}
#: Lengths Avro must refuse without allocating: negative, beyond its limit of 2^31 - 9, or over-long varints.
BAD_LENGTHS = {"minus-1": long_(-1), "int-min": long_(-2**31), "long-min": long_(-2**63),
               "above-limit": long_(2**31 - 8), "int-max": long_(2**31 - 1), "2-pow-40": long_(2**40),
               "long-max": long_(2**63 - 1), "eleven-byte": b"\x80" * 10 + b"\x01",
               "ten-byte-high": b"\xff" * 9 + b"\x7f"}


def truncated():
    for end in range(len(main())):
        yield f"truncated-at-{end}", main()[:end]
    for end in range(len(maps())):
        yield f"maps-truncated-at-{end}", maps()[:end]


def wrong_union():
    for field in NULLABLE:
        value = main_fields()[field][1:]  # the value without its branch
        for name, branch in BRANCHES.items():
            yield f"union-{field}-{name}", main(**{field: branch + value})
    for name, branch in BRANCHES.items():
        yield f"union-tags-element-{name}", main(tags=some(array([branch + string(b"a")])))
        yield f"union-r-x-{name}", main(r=some(branch + long_(7) + some(string(b"y"))))


def lengths():
    holders = {"s": lambda n: some(n + b"abc"), "b": lambda n: some(n + b"\x00\x01"),
               "dec": lambda n: some(n + b"\x04"),
               "tags": lambda n: some(n + some(string(b"a")) + b"\x00"),
               "r": lambda n: some(some(long_(7)) + some(n + b"y"))}
    for field, holder in holders.items():
        for name, length in BAD_LENGTHS.items():
            yield f"length-{field}-{name}", main(**{field: holder(length)})
        yield f"length-{field}-one-too-many", main(**{field: holder(long_(64))})
    yield "decimal-empty", main(dec=some(string(b"")))
    yield "string-empty", main(s=some(string(b"")))
    yield "tags-negative-count-with-size", main(tags=some(long_(-2) + long_(4) + some(string(b"a")) +
                                                          some(string(b"b")) + b"\x00"))
    yield "tags-negative-count-bad-size", main(tags=some(long_(-1) + long_(-5) + some(string(b"a")) + b"\x00"))
    yield "tags-many-blocks", main(tags=some(b"".join(long_(1) + some(string(b"t")) for _ in range(5)) + b"\x00"))
    yield "tags-no-end", main(tags=some(long_(1) + some(string(b"a"))), r=b"")
    yield "tags-count-long-min", main(tags=some(long_(-2**63) + long_(0) + b"\x00"))


def invalid_utf8():
    for i, bad in enumerate(BAD_UTF8):
        yield f"bad-utf8-s-{i}", main(s=some(string(b"a" + bad + b"b")))
        yield f"bad-utf8-tags-{i}", main(tags=some(array([some(string(bad))])))
        yield f"bad-utf8-r-y-{i}", main(r=some(some(long_(7)) + some(string(bad + b"z"))))
    yield "nul-in-string", main(s=some(string(b"a\x00b")))
    yield "bom-in-string", main(s=some(string(b"\xef\xbb\xbfx")))


def values():
    for name, x in (("nan", math.nan), ("inf", math.inf), ("-inf", -math.inf), ("-0", -0.0), ("tiny", 5e-324)):
        yield f"double-{name}", main(d=some(float64(x)))
        yield f"float-{name}", main(f=some(float32(x) if name != "tiny" else struct.pack("<I", 1)))
    yield "double-signalling-nan", main(d=some(struct.pack("<Q", 0x7FF0000000000001)))
    yield "double-nan-payload", main(d=some(struct.pack("<Q", 0xFFF800000000ABCD)))
    yield "float-signalling-nan", main(f=some(struct.pack("<I", 0x7F800001)))
    for b in (0, 2, 0x7F, 0x80, 0xFF):
        yield f"boolean-byte-{b:02x}", main(ok=some(bytes([b])))
    for v in (128, -129, 300, 2**31 - 1, -2**31):
        yield f"tinyint-{v}", main(ti=some(long_(v)))
        yield f"smallint-{v}", main(si=some(long_(v * 300)))
    for v in (10**10 - 1, -(10**10 - 1), 10**10, -(10**10), 2**80, -1, 0):
        yield f"decimal-{v}", main(dec=some(decimal(v)))
    yield "decimal-padded", main(dec=some(string(b"\x00\x00\x00\x04\xd2")))
    yield "decimal-minus-padded", main(dec=some(string(b"\xff\xff\xff\xfb\x2e")))
    for v in (-2**31, 2**31 - 1, -1, 2_932_896, 2_932_897):
        yield f"date-{v}", main(dt=some(long_(v)))
    for v in (-1, 86_400_000, 2**31 - 1):
        yield f"time-{v}", main(t=some(long_(v)))
    for v in (0, -1, 9_223_372_036_854, -9_223_372_036_854, 9_223_372_036_855, 2**63 - 1, -2**63):
        yield f"timestamp-{v}", main(ts=some(long_(v)))
    for v in (2**63 - 1, -2**63, 0):
        yield f"id-{v}", main(id=long_(v))
    yield "all-null", main(**{f: NULL for f in NULLABLE})
    yield "nested-nulls", main(r=some(NULL + NULL), tags=some(array([NULL, NULL])))
    yield "tags-empty", main(tags=some(array([])))


def other_schemas():
    yield "maps-datum", maps()
    yield "json-text", b'{"id":1,"s":"x"}'
    yield "csv-text", b"1,true,2,3"
    yield "confluent-wire-format", b"\x00\x00\x00\x00\x2a" + main()
    yield "single-object-encoding", b"\xc3\x01" + bytes(range(8)) + main()
    yield "container-file-header", b"Obj\x01" + map_([(b"avro.schema", string(b'"long"'))]) + bytes(16)
    yield "protobuf-bytes", b"\x08\x96\x01\x12\x03abc"
    yield "empty", b""
    yield "tombstone", None
    yield "one-zero-byte", b"\x00"
    yield "only-id", long_(5)
    yield "main-with-map-appended", main() + map_([(b"k", some(long_(1)))])
    yield "int-branch-for-long", long_(1) + b"\x02\x02"


def random_bytes():
    yield from random_messages(20261203, 80, main(), "main")


def trailing():
    for name, tail in {"zero": b"\x00", "two": b"\x02", "ff": b"\xff", "main": main(), "text": b"garbage",
                       "maps": maps()}.items():
        yield f"trailing-{name}", main() + tail
        yield f"maps-trailing-{name}", maps() + tail
    yield encode_parts("trailing-100k-zeros", (main(), 1), (b"\x00", 100_000))


def huge_values():
    head = main_fields()
    before_s = b"".join(v for k, v in head.items() if k in ("id", "ok", "i", "ti", "si", "f", "d", "dec"))
    after_s = b"".join(v for k, v in head.items() if k in ("b", "dt", "t", "ts", "tags", "r"))
    n = 16 << 20
    yield encode_parts("huge-string-16MB", (before_s + some(long_(n)), 1), (b"a", n), (after_s, 1))
    yield encode_parts("huge-string-16MB-cut", (before_s + some(long_(n + 1)), 1), (b"a", n), (after_s, 1))
    before_tags = b"".join(v for k, v in head.items() if k not in ("tags", "r"))
    yield encode_parts("tags-10k-in-one-block", (before_tags + some(long_(10_000)), 1),
                       (some(string(b"t")), 10_000), (b"\x00" + head["r"], 1))
    # Long enough that reading it one array position at a time takes tens of seconds; cut before its
    # end so that Flink fails on it without a slow conversion of its rows for the comparison.
    yield encode_parts("tags-100k-blocks-cut", (before_tags + b"\x02", 1), (long_(1) + some(string(b"t")), 100_000))
    yield "maps-2k-entries", maps(m=some(map_([(f"k{i}".encode(), some(long_(i))) for i in range(2_000)])))


def map_cases():
    """Datums of avro_target.MAPS: keys Java hashes alike, repeated keys, keys that are not UTF-8."""
    cases = {
        "colliding-keys": [(b"Aa", some(long_(1))), (b"BB", some(long_(2))), (b"AaAa", NULL),
                           (b"BBBB", some(long_(4)))],
        "repeated-key": [(b"k", some(long_(1))), (b"j", NULL), (b"k", some(long_(3)))],
        "empty-key": [(b"", some(long_(1)))],
        "bad-utf8-keys": [(b"\xff", some(long_(1))), (b"\xfe", some(long_(2))), (b"\xed\xa0\x80", NULL)],
        "keys-equal-after-replacement": [(b"\xff", some(long_(1))), (b"\xfe", some(long_(2)))],
        "many-keys": [(f"key{i}".encode(), some(long_(i))) for i in range(100)],
    }
    for name, entries in cases.items():
        yield f"maps-{name}", maps(m=some(map_(entries)))
    yield "maps-negative-count-with-size", maps(m=some(long_(-1) + long_(3) + string(b"k") + some(long_(1)) + b"\x00"))
    yield "maps-key-length-negative", maps(m=some(long_(1) + long_(-1) + b"k" + some(long_(1)) + b"\x00"))
    yield "maps-value-branch-2", maps(m=some(map_([(b"k", b"\x04\x02")])))
    yield "maps-inner-cut", maps(mm=some(long_(1) + string(b"o") + some(long_(1) + string(b"i"))))
    yield "maps-null", maps(m=NULL, mm=NULL)
    yield "maps-count-above-limit", maps(m=some(long_(2**31 - 8)))
    for name, bad in BRANCHES.items():
        yield f"maps-union-{name}", maps(m=bad + map_([(b"k", some(long_(1)))]))


CATEGORIES = {"truncated": truncated, "wrong-union": wrong_union, "lengths": lengths, "invalid-utf8": invalid_utf8,
              "values": values, "other-schemas": other_schemas, "random": random_bytes, "trailing": trailing,
              "huge-values": huge_values, "maps": map_cases}


if __name__ == "__main__":
    write("avro", CATEGORIES)
