"""Writes the csv format's fuzz corpus (`corpus/csv/*.jsonl`). Deterministic: run it again after
adding a category and commit the files; the tests read only the files.

Messages are written for csv_target.CsvTarget's row type with the default settings (comma,
double quote); the other option sets read the same bytes, so a comma is text to them and a
semicolon or tab a delimiter.

    .cache/venv/bin/python tests/fuzz/make_csv_corpus.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import encode_parts, write  # noqa: E402
from make_json_corpus import BAD_UTF8  # noqa: E402

#: The row type's fields in order (csv_target.CsvTarget.row_type) and a valid record of them.
FIELDS = ["b", "ti", "si", "i", "bi", "f", "d", "dec", "s", "c"]
VALUES = [b"true", b"7", b"-300", b"42", b"1001", b"1.5", b"-2.25", b"12.34", b"caf\xc3\xa9", b"abc"]
VALID = b",".join(VALUES)
WRONG_VALUES = [b"", b" ", b"x", b"1.5", b"1e2", b"TRUE", b"yes", b"0x10", b"+1", b"-0", b"128", b"32768",
                b"2147483648", b"9223372036854775808", b"1_000", "\u0661".encode(), b" 1 ", b"\t1", b"1d",
                b"12.345", b"abcd"]
NAN_TEXTS = [b"NaN", b"-NaN", b"+NaN", b"nan", b"Infinity", b"-Infinity", b"+Infinity", b"inf", b"Infinityx",
             b" NaN ", b"1e400", b"-1e400", b"1e-400", b"0x1p3", b"1.5f", b"1.5D", b"4.9e-324", b"3.5e38"]


def _with(field: str, value: bytes, values: list[bytes] = VALUES) -> bytes:
    """VALID with one field's text replaced."""
    return b",".join(value if f == field else v for f, v in zip(FIELDS, values))


def truncated():
    for end in range(len(VALID)):
        yield f"truncated-at-{end}", VALID[:end]


def wrong_types():
    for field in FIELDS:
        for i, value in enumerate(WRONG_VALUES):
            yield f"wrong-type-{field}-{i}", _with(field, value)


def nan_text():
    for field in ("f", "d", "dec", "i"):
        for i, text in enumerate(NAN_TEXTS):
            yield f"nan-{field}-{i}", _with(field, text)


def column_counts():
    for n in range(0, 16):
        yield f"columns-{n}", b",".join((VALUES * 2)[:n])
    yield "trailing-delimiter", VALID + b","
    yield "two-trailing-delimiters", VALID + b",,"
    yield "trailing-blank-column", VALID + b", "
    yield "trailing-quoted-empty", VALID + b',""'
    yield "trailing-quoted-blank", VALID + b'," "'
    yield "only-delimiters", b"," * 9
    yield "only-delimiters-extra", b"," * 10
    yield "semicolons", b";".join(VALUES)
    yield "semicolons-quoted", b";".join(b"'" + v + b"'" for v in VALUES)
    yield "semicolons-null", b";".join([b"N/A"] * len(VALUES))
    yield "tabs", b"\t".join(VALUES)
    yield "tabs-null", b"\t".join([b"\\N"] * len(VALUES))


def quoting():
    texts = [b'"q"', b'"a,b"', b'"a""b"', b'a"b', b'"x" ', b'"x"y', b'"open', b' "x"', b'""', b'""""', b'"a\nb"',
             b'"a\r\nb"', b"'x'", b"'a;b'", b"'a''b'", b'"\\""', b"\\", b'"a\\"b"']
    for i, text in enumerate(texts):
        yield f"quoted-string-{i}", _with("s", text)
        yield f"quoted-int-{i}", _with("i", text)
    for field in FIELDS:
        yield f"quoted-valid-{field}", _with(field, b'"' + VALUES[FIELDS.index(field)] + b'"')
    yield "all-quoted", b",".join(b'"' + v + b'"' for v in VALUES)
    yield "quoted-number-spaces", _with("i", b'" 42 "')
    yield "quoted-last-open", VALID[:-3] + b'"abc'


def records():
    """Line breaks, several records, comments and blank lines around the first record."""
    for name, message in {
        "second-record": VALID + b"\n" + VALID, "second-record-garbage": VALID + b"\nx,y",
        "crlf": VALID + b"\r\n", "cr": VALID + b"\r", "lf": VALID + b"\n", "leading-lf": b"\n" + VALID,
        "leading-crlf": b"\r\n" + VALID, "blank-line-first": b" \n" + VALID, "comment-first": b"#c\n" + VALID,
        "comment-only": b"#" + VALID, "newline-only": b"\n", "cr-only": b"\r", "spaces-only": b"   ",
        "bom": b"\xef\xbb\xbf" + VALID, "nul-in-string": _with("s", b"a\x00b"), "nul-only": b"\x00",
        "empty": b"", "tombstone": None, "null-literals": b",".join([b"N/A"] * len(VALUES)),
        "backslash-n": b",".join([b"\\N"] * len(VALUES)), "empty-fields": b"," * (len(FIELDS) - 1),
        "utf16-le": VALID.decode().encode("utf-16-le"), "utf16-bom": VALID.decode().encode("utf-16"),
        "nul-first": b"\x00" + VALID, "nul-second": b"t\x00" + VALID[2:],
    }.items():
        yield name, message


def invalid_utf8():
    """Bytes that are not UTF-8 inside the record, and after it (Jackson rejects them only once
    the parser reads that far: the record's line break and one char beyond)."""
    for i, b in enumerate(BAD_UTF8):
        yield f"bad-utf8-in-string-{i}", _with("s", b"a" + b + b"b")
        yield f"bad-utf8-in-number-{i}", _with("i", b"4" + b)
        yield f"bad-utf8-after-record-{i}", VALID + b"\nx" + b
    for i, tail in enumerate([b"\n", b"\r", b"\r\n", b"\n\n", b"\nx", b"\r\nx", b"\n\xc3\xa9", b""]):
        yield f"bad-utf8-after-line-break-{i}", VALID + tail + b"\xff"
    yield "bad-utf8-truncated-after-line-break", VALID + b"\n\xc3"
    yield "cesu-surrogate-pair", _with("s", b"\xed\xa0\x80\xed\xb0\x80")
    yield "overlong-four-byte", _with("s", b"\xf0\x80\x80\x80")
    yield "above-u10ffff", _with("s", b"\xf7\xbf\xbf\xbf")
    yield "overlong-nul-in-number", _with("i", b"\xc0\x8042\xc0\x80")


def huge_values():
    head = b",".join(VALUES[:8]) + b","
    for n in (1 << 20, 20_000_010):
        yield encode_parts(f"huge-string-{n}", (head, 1), (b"a", n), (b",abc", 1))
    yield encode_parts("huge-quoted-string", (head + b'"', 1), (b'a""', 300_000), (b'",abc', 1))
    yield encode_parts("huge-unclosed-quote", (head + b'"', 1), (b"a", 1 << 20))
    yield encode_parts("many-columns", (VALID, 1), (b",x", 100_000))
    yield encode_parts("huge-integer", (b"true,7,-300,", 1), (b"9", 10_000), (b",1001,1.5,-2.25,12.34,s,abc", 1))
    yield encode_parts("huge-decimal", (b"true,7,-300,42,1001,1.5,-2.25,0.", 1), (b"1", 10_000), (b",s,abc", 1))
    yield encode_parts("huge-double", (b"true,7,-300,42,1001,1.5,1", 1), (b"0", 400), (b",12.34,s,abc", 1))
    yield encode_parts("huge-second-record", (VALID + b"\n", 1), (b"x", 1 << 20))


CATEGORIES = {"truncated": truncated, "wrong-types": wrong_types, "nan-text": nan_text,
              "column-counts": column_counts, "quoting": quoting, "records": records,
              "invalid-utf8": invalid_utf8, "huge-values": huge_values}


if __name__ == "__main__":
    write("csv", CATEGORIES)
