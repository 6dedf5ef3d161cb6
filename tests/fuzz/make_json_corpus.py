"""Writes the json decoder's fuzz corpus (`corpus/json/*.jsonl`). Deterministic: run it again after
adding a category and commit the files; the tests read only the files.

    .cache/venv/bin/python tests/fuzz/make_json_corpus.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import encode_parts, write  # noqa: E402

#: A well-formed message of the fuzz row type (see fuzz_targets.JSON_ROW), the seed of most cases.
VALID = (b'{"auction":1001,"price":12.5,"name":"caf\xc3\xa9","ok":true,"ts":"2026-01-01 00:00:01.250",'
         b'"dec":"12.34","tags":["a","b"],"r":{"x":7}}')
FIELDS = ["auction", "price", "name", "ok", "ts", "dec", "tags", "r"]
WRONG_VALUES = [b"null", b"true", b"false", b"0", b"-1", b"1.5", b"1e400", b'"x"', b'""', b'"12"', b"[]", b"[1]",
                b"{}", b'{"x":1}', b'"2026-01-01"', b'"NaN"', b"9223372036854775808", b'"true"']


def _with(field: str, value: bytes) -> bytes:
    """VALID with one field's value replaced."""
    import json
    keys = json.loads(VALID)
    parts = []
    for key in keys:
        raw = value if key == field else json.dumps(keys[key], ensure_ascii=False, separators=(",", ":")).encode()
        parts.append(b'"' + key.encode() + b'":' + raw)
    return b"{" + b",".join(parts) + b"}"


def truncated():
    for end in range(len(VALID)):
        yield f"truncated-at-{end}", VALID[:end]


def wrong_types():
    for field in FIELDS:
        for i, value in enumerate(WRONG_VALUES):
            yield f"wrong-type-{field}-{i}", _with(field, value)
    for i, doc in enumerate([b"1", b'"text"', b"true", b"null", b"[1,2]", b"[[]]", b'[{"auction":1},2]', b"[null]",
                             b'[{"auction":1},{"auction":"x"}]']):
        yield f"wrong-type-top-level-{i}", doc


def deep_nesting():
    for depth in (998, 999, 1000, 1001, 1002, 5000, 100_000):
        yield encode_parts(f"deep-array-in-string-field-{depth}", (b'{"name":', 1), (b"[", depth), (b"]", depth),
                           (b"}", 1))
        yield encode_parts(f"deep-object-in-unknown-field-{depth}", (b'{"zz":', 1), (b'{"a":', depth), (b"1", 1),
                           (b"}", depth + 1))
        yield encode_parts(f"deep-array-in-row-field-{depth}", (b'{"r":{"x":', 1), (b"[", depth), (b"]", depth),
                           (b"}}", 1))
    yield encode_parts("deep-unclosed", (b'{"name":', 1), (b"[", 2000))
    yield encode_parts("deep-top-level-array", (b"[", 1500), (b"]", 1500))


def huge_values():
    """Written as recipes (`corpus_files.encode_parts`). Jackson's default limits: 20,000,000 chars
    per string, 1000 chars per number."""
    for n in (1 << 20, 19_999_990, 20_000_010):
        yield encode_parts(f"huge-string-known-field-{n}", (b'{"auction":1,"name":"', 1), (b"a", n), (b'"}', 1))
    yield encode_parts("huge-string-unknown-field", (b'{"zz":"', 1), (b"\xc3\xa9", 600_000), (b'","auction":2}', 1))
    yield encode_parts("huge-key", (b'{"', 1), (b"k", 1 << 20), (b'":1,"auction":3}', 1))
    for digits in (999, 1000, 1001, 100_000):
        yield encode_parts(f"huge-integer-{digits}", (b'{"auction":', 1), (b"9", digits), (b"}", 1))
        yield encode_parts(f"huge-decimal-{digits}", (b'{"dec":0.', 1), (b"1", digits), (b"}", 1))
    yield encode_parts("many-fields", (b"{", 1), (b'"f":1,', 200_000), (b'"auction":4}', 1))
    yield encode_parts("many-array-elements", (b'{"tags":[', 1), (b'"t",', 200_000), (b'"end"]}', 1))
    yield encode_parts("many-top-level-rows", (b"[", 1), (b'{"auction":5},', 50_000), (b'{"auction":6}]', 1))


#: Byte sequences that are not UTF-8 (the other formats' generators use them too): stray and
#: overlong bytes, truncated sequences, encoded surrogates, code points above U+10FFFF.
BAD_UTF8 = [b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xe2(\xa1",
            b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x28\x8c\xbc", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80",
            b"\xef\xbf\xbe", b"\xf0\x9f\x98"]


def invalid_utf8():
    for i, b in enumerate(BAD_UTF8):
        yield f"bad-utf8-in-string-{i}", b'{"auction":1,"name":"a' + b + b'b"}'
        yield f"bad-utf8-in-key-{i}", b'{"na' + b + b'me":"x","auction":1}'
        yield f"bad-utf8-in-unknown-{i}", b'{"zz":"' + b + b'","auction":1}'
        yield f"bad-utf8-outside-string-{i}", b'{"auction":1' + b + b"}"
    yield "bom-utf8", b"\xef\xbb\xbf" + VALID
    yield "utf16-le", VALID.decode().encode("utf-16-le")
    yield "utf16-be-bom", VALID.decode().encode("utf-16")
    yield "utf32", b'{"auction":1}'.decode().encode("utf-32-le")
    yield "lone-surrogate-escape", b'{"name":"\\ud800x","auction":1}'
    yield "reversed-surrogates", b'{"name":"\\udc00\\ud800"}'
    yield "bad-escape", b'{"name":"\\x41"}'
    yield "short-unicode-escape", b'{"name":"\\u12"}'
    yield "nul-in-string", b'{"name":"a\x00b"}'
    yield "raw-newline-in-string", b'{"name":"a\nb"}'
    yield "escaped-nul", b'{"name":"a\\u0000b"}'


def nan_text():
    for i, text in enumerate([b"NaN", b"-NaN", b"Infinity", b"-Infinity", b"+Infinity", b"inf", b"nan", b'"NaN"',
                              b'"Infinity"', b'"-Infinity"', b'"nan"', b'"1e400"', b"1e400", b"-1e400", b"1e-400"]):
        yield f"nan-price-{i}", b'{"price":' + text + b"}"
        yield f"nan-auction-{i}", b'{"auction":' + text + b"}"
        yield f"nan-dec-{i}", b'{"dec":' + text + b"}"
        yield f"nan-name-{i}", b'{"name":' + text + b"}"


def structure():
    cases = {
        "tombstone": None, "empty": b"", "space": b" ", "whitespace": b"\t\r\n ", "nul-byte": b"\x00",
        "empty-object": b"{}", "duplicate-keys": b'{"auction":1,"auction":"x","auction":3}',
        "trailing-garbage": VALID + b" garbage", "trailing-object": VALID + b'{"auction":2}',
        "trailing-comma": b'{"auction":1,}', "missing-colon": b'{"auction" 1}', "single-quotes": b"{'auction':1}",
        "unquoted-key": b"{auction:1}", "comment": b'{"auction":1/*c*/}', "leading-zero": b'{"auction":01}',
        "hex-number": b'{"auction":0x10}', "plus-number": b'{"auction":+1}', "dot-number": b'{"price":.5}',
        "number-dot": b'{"price":1.}', "unclosed-string": b'{"name":"abc', "unclosed-array": b'{"tags":["a"',
        "null-key-object": b'{null:1}', "array-for-row": b'{"r":[7]}', "row-for-array": b'{"tags":{"a":1}}',
        "nested-nulls": b'{"tags":[null,null],"r":{"x":null}}', "timestamp-garbage": b'{"ts":"2026-13-45 99:99:99"}',
        "timestamp-iso": b'{"ts":"2026-01-01T00:00:01.250Z"}', "timestamp-far": b'{"ts":"+999999999-12-31 23:59:59"}',
        "decimal-too-wide": b'{"dec":123456789012.345}', "decimal-exponent": b'{"dec":1.5e300}',
        "bigint-overflow": b'{"auction":9223372036854775808}', "bigint-fraction": b'{"auction":1.9}',
        "only-unknown": b'{"zz":[{"a":[1,{"b":null}]}]}', "valid": VALID,
    }
    yield from cases.items()


CATEGORIES = {"truncated": truncated, "wrong-types": wrong_types, "deep-nesting": deep_nesting,
              "huge-values": huge_values, "invalid-utf8": invalid_utf8, "nan-text": nan_text, "structure": structure}


if __name__ == "__main__":
    write("json", CATEGORIES)
