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


#: A well-formed message of the MAP and VARBINARY columns (json_target.MAPS_AND_BYTES_ROW).
VALID_MAPS_AND_BYTES = (b'{"auction":7,"m":{"a":1,"caf\xc3\xa9":-2,"\\u00e9":3,"z":null},"b":"QUJDRA==",'
                        b'"am":[{"k":"QQ==","j":null},{},null]}')


def truncated_maps_and_bytes():
    for end in range(len(VALID_MAPS_AND_BYTES)):
        yield f"maps-and-bytes-truncated-at-{end}", VALID_MAPS_AND_BYTES[:end]


def _entries(keys, value=b"1") -> bytes:
    return b"{" + b",".join(b'"' + k + b'":' + value for k in keys) + b"}"


#: Map keys as they stand in the JSON: escaped, non-ASCII, lone and reversed surrogates (which
#: Flink stores as '?', yet keeps apart from a real '?'), an escaped NUL, an empty key.
MAP_KEYS = [b"a", b"\\u0061", b"caf\xc3\xa9", b"caf\\u00e9", b"\xf0\x9f\x98\x80", b"\\ud83d\\ude00", b"\\ud800",
            b"\\udc00", b"\\udc00\\ud800", b"?", b"\\n", b"\\\\", b"\\/", b"\\\"", b"\\u0000", b"", b" ", b"m"]


def maps():
    for i, key in enumerate(MAP_KEYS):
        yield f"map-key-{i}", b'{"m":{"' + key + b'":1,"b":2},"auction":1}'
        yield f"map-key-repeated-{i}", b'{"m":{"' + key + b'":1,"x":2,"' + key + b'":3},"auction":1}'
    yield "map-lone-surrogate-and-question-mark", b'{"m":{"\\ud800":1,"?":2,"\\ud800":3}}'
    yield "map-escaped-and-plain-twins", b'{"m":{"a":1,"\\u0061":2,"caf\\u00e9":3,"caf\xc3\xa9":4}}'
    for n in (0, 1, 12, 13, 24, 25, 100, 1000):  # HashMap resizes past 12, 24, ... entries
        yield f"map-entries-{n}", b'{"m":' + _entries([b"k%d" % i for i in range(n)]) + b"}"
        yield f"map-entries-{n}-in-array", b'{"am":[' + _entries([b"k%d" % i for i in range(n)], b'"QQ=="') + b"]}"
    yield "map-all-repeated", b'{"m":' + _entries([b"k"] * 50) + b"}"
    for i, value in enumerate(WRONG_VALUES + [b"2147483648", b"-2147483649", b'"7"', b"7.0", b"1e2"]):
        yield f"map-value-wrong-type-{i}", b'{"m":{"a":' + value + b',"b":2},"auction":1}'
    for i, value in enumerate(WRONG_VALUES):
        yield f"array-map-value-wrong-type-{i}", b'{"am":[{"a":' + value + b',"b":"QQ=="}],"auction":1}'
        yield f"map-wrong-type-{i}", b'{"m":' + value + b',"auction":1}'
        yield f"array-of-maps-wrong-type-{i}", b'{"am":' + value + b',"auction":1}'
        yield f"array-of-maps-element-wrong-type-{i}", b'{"am":[' + value + b',{"a":"QQ=="}],"auction":1}'
    for i, bad in enumerate(BAD_UTF8[:8]):
        yield f"map-key-bad-utf8-{i}", b'{"m":{"a' + bad + b'b":1},"auction":1}'
    cases = {
        "map-null-values": b'{"m":{"a":null,"b":null},"am":[{"a":null}]}',
        "map-unclosed": b'{"m":{"a":1', "map-unclosed-after-comma": b'{"m":{"a":1,',
        "map-unclosed-key": b'{"m":{"a', "map-missing-value": b'{"m":{"a":},"auction":1}',
        "map-missing-colon": b'{"m":{"a" 1},"auction":1}', "map-trailing-comma": b'{"m":{"a":1,},"auction":1}',
        "map-unquoted-key": b'{"m":{a:1},"auction":1}', "map-number-key": b'{"m":{1:1},"auction":1}',
        "map-null-key-token": b'{"m":{null:1},"auction":1}', "map-closed-by-bracket": b'{"m":{"a":1],"auction":1}',
        "map-nested-object-value": b'{"m":{"a":{"b":{"c":1}},"d":2},"auction":1}',
        "map-nested-array-value": b'{"m":{"a":[1,[2]],"d":2},"auction":1}',
        "map-deep-value": b'{"m":{"a":' + b"[" * 1200 + b"]" * 1200 + b"},\"auction\":1}",
        "array-of-maps-unclosed": b'{"am":[{"a":"QQ=="},{"b":',
        "array-of-maps-nulls": b'{"am":[null,{},null]}', "array-of-maps-empty": b'{"am":[]}',
        "map-and-row-twice": b'{"m":{"a":1},"r":{"x":1},"m":{"b":2},"auction":1}',
        "map-field-repeated-with-bad-second": b'{"m":{"a":1},"m":[1],"auction":1}',
        "map-then-bad-field": b'{"m":{"a":1,"b":2},"auction":"x","price":1.5}',
        "map-bad-value-then-fields": b'{"m":{"a":true,"b":2},"b":"QQ==","auction":1}',
        "map-bad-value-array-then-keys": b'{"m":{"a":[null],"b":1},"auction":1}',
        "map-bad-value-object-then-keys": b'{"m":{"a":{"k":"v"},"b":1},"auction":1}',
        "valid-maps-and-bytes": VALID_MAPS_AND_BYTES,
    }
    yield from cases.items()


#: Base64 content of a VARBINARY string as it stands in the JSON: canonical of several lengths,
#: separators between groups (raw and escaped whitespace, MIME line breaks) and inside them,
#: escapes of alphabet characters and of '=', padding in odd places, URL-safe and other
#: characters outside the alphabet, bad escapes and bytes, an escaped quote.
BASE64 = [b"", b"QQ==", b"QUI=", b"QUJD", b"QUJDRA==", b"AAAA", b"////", b"+/+/", b"AP8A/w==",
          b" QUJD", b"QUJD ", b"QUJD QUJD", b"QUJD\nQUJD", b"QUJD\r\nQQ==\r\n", b"QUJD\\nQUJD", b"QUJD\\r\\nQQ==",
          b"\\u000AQUJD", b"QUJD\\u0020QUI=", b"QUJD\\tQUJD\\f\\b", b"QUJD\x01QUJD", b"QUJD\x1fQQ==\x00",
          b"QU JD", b"Q UJD", b"QUJ D", b"QU\\nJD", b"QUJ\\u0044", b"\\u0051UJD", b"QUJ\\/", b"\\/\\/\\/\\/",
          b"QQ\\u003d\\u003d", b"QQ=\\u003d", b"Q\\u003dQQ", b"\\u003dQUJD", b"QUI\\u003d",
          b"QQ==QUJD", b"QQ==QQ==", b"QUI=QUI=", b"=QUJD", b"==", b"====", b"Q===", b"QQ=A", b"QUJD=", b"QUJD==",
          b"QQ", b"QUI", b"Q", b"QR==", b"QUK=", b"QUJDR", b"QQ=", b"QUJD\\u003d",
          b"-_-_", b"QUJ-", b"QUJ_", b"QUJD!", b"QUJD.", b"QUJD\xc3\xa9", b"\xc3\xa9QUJD", b"QUJD\xff", b"QUJ\x80",
          b"\\xQUJD", b"\\u00e9QUJD", b"\\ud800QUJD", b"\\\xc3\xa9", b"\\\xff", b"QUJD\\u004", b"QU\\\"D",
          b"QUJD\\", b"QUJDRA==\x7f"]
#: Where the content stands: alone, followed by a field (to show where the parser carries on
#: after a failure), unclosed, and as a map value inside the array of maps.
BASE64_SHAPES = [b'{"b":"%s","auction":1}', b'{"auction":1,"b":"%s',
                 b'{"am":[{"k":"%s","j":"QQ=="}],"auction":1}']


def base64_content():
    for i, content in enumerate(BASE64):
        for j, shape in enumerate(BASE64_SHAPES):
            yield f"base64-{i}-shape-{j}", shape.replace(b"%s", content)
    for i, token in enumerate([b"1", b"-0", b"1.5", b"true", b"false", b"null", b"[]", b'["QQ=="]', b"{}",
                               b'{"a":"QQ=="}', b"NaN"]):
        yield f"base64-non-string-{i}", b'{"b":' + token + b',"auction":1}'
        yield f"base64-non-string-in-map-{i}", b'{"am":[{"k":' + token + b',"j":"QQ=="}],"auction":1}'
    mime_line = b"QUJD" * 19  # a MIME encoder's 76-character lines
    yield encode_parts("base64-mime-lines-1mb", (b'{"b":"', 1), (mime_line + b"\\r\\n", 14_000), (b'QQ=="}', 1))
    yield encode_parts("base64-raw-line-breaks-1mb", (b'{"b":"', 1), (mime_line + b"\n", 14_000), (b'"}', 1))
    yield encode_parts("base64-plain-4mb", (b'{"b":"', 1), (b"QUJD", 1 << 20), (b'","auction":1}', 1))
    yield encode_parts("base64-escaped-4mb", (b'{"b":"', 1), (b"\\u0051UJD", 200_000), (b'"}', 1))
    yield encode_parts("base64-bad-at-end-1mb", (b'{"b":"', 1), (b"QUJD", 1 << 18), (b'Q","auction":1}', 1))



#: Unrecognized tokens whose end Flink's parser finds its own way (bad UTF-8 inside them, a
#: non-ASCII byte after a whole literal, texts past the 256 chars it reads for its message):
#: json.ignore-parse-errors carries on from there inside an array or a map.
BAD_TOKENS = [b"nu\xecl", b"nul\x80", b"nu\xed\xa0\x80", b"nu\xf0\x90\x80\x80\x00", b"nu" + b"u" * 300,
              b"\xc3\xa9", b"\xc3" + b"a" * 300, b"\x85x", b"null\xc3\xa9", b"null\x80", b"true\xe2\x80\x94", b"NaN\xc3"]


def bad_tokens():
    for i, token in enumerate(BAD_TOKENS):
        yield f"bad-token-in-array-{i}", b'{"tags":["a",' + token + b',"b"],"auction":5}'
        yield f"bad-token-in-map-{i}", b'{"m":{"k":' + token + b',"j":2},"auction":5}'


CATEGORIES = {"truncated": truncated, "wrong-types": wrong_types, "deep-nesting": deep_nesting,
              "huge-values": huge_values, "invalid-utf8": invalid_utf8, "nan-text": nan_text, "structure": structure,
              "maps-and-bytes-truncated": truncated_maps_and_bytes, "maps": maps, "base64": base64_content,
              "bad-tokens": bad_tokens}


if __name__ == "__main__":
    write("json", CATEGORIES)
