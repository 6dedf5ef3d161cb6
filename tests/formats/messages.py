"""Hypothesis strategies for json messages as a Kafka topic may really hold them: mostly
well-formed, often with the wrong types, odd numbers, duplicate or unknown fields, and sometimes
broken (truncated, invalid UTF-8, stray bytes, nothing but whitespace)."""

from __future__ import annotations

from hypothesis import strategies as st

#: JSON value texts that exercise Flink's converters: numbers given as strings, out-of-range and
#: fractional numbers, booleans spelled oddly, date and time layouts Flink does or does not take.
_VALUE_TEXTS = [
    "0", "-0", "1", "-1", "127", "128", "-129", "32768", "2147483647", "2147483648", "-2147483649",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1.5", "-1.9", "2.5e0",
    "1e2", "1E+2", "1e-7", "1e21", "1e400", "-1e400", "0.1", "1.0", "-0.0", "3.4028235e38",
    "3.4028236e38", "1.4e-45", "0.000000000000000000001", "123456789012345678901234567890",
    "9223372036854775808.0", "2147483647.5", "99999999.995", "1.555", "12.345",
    '"12"', '" 12 "', '"+12"', '"-0"', '"1.5"', '"1e2"', '"0x1p3"', '"1.5f"', '"NaN"', '"Infinity"',
    '"-Infinity"', '"abc"', '""', '" "', '"true"', '"TRUE"', '" true "', '"yes"', '"1_000"',
    '"\u0661\u0662"', '"\uff11"', '"1."', '".5"',
    "true", "false", "null", "{}", "[]", '{"a":1}', "[1,2]", '[{"x":"y"}]', '{"i":7,"s":"in"}',
    '"2020-02-29"', '"2021-02-29"', '"2020-02-30"', '"2020-13-01"', '"+12020-01-01"', '"12020-01-01"',
    '"0000-01-01"', '"-0001-12-31"', '"2020-1-1"', '"1970-01-01"',
    '"12:34:56"', '"24:00:00"', '"23:59:60"', '"12:34"', '"12:34:56."', '"12:34:56.123456789"',
    '"12:34:56.1234567891"', '"1:2:3"',
    '"2020-02-29 12:34:56.789"', '"2020-02-30 12:34:56"', '"2021-04-31 00:00:00"',
    '"2020-01-01 24:00:00"', '"2020-01-01T12:34:56"', '"2020-01-01t12:34"', '"2020-01-01T12:34"',
    '"2020-01-01 12:34:56Z"', '"2020-01-01T12:34:56.5Z"', '"2020-01-01T24:00Z"', '"2020-01-01 12:34:56.Z"',
    '"1969-12-31 23:59:59.999999999"', '"0000-01-01 00:00:00"', '"9999-12-31 23:59:59.999999999"',
    '"+10000-01-01 00:00:00"', '"-999999999-01-01 00:00:00.000000001"', '"+999999999-12-31 23:59:59.999999999"',
    '"\\u00e9\\ud83d\\ude00"', '"\\ud800"', '"tab\there"', '"a\\"b\\\\c"', '"\\/"', '"\u2028"',
    "NaN", "Infinity", "-Infinity", "01", "-", "1.", ".5", "+1", "tru", "truex", "nul", "'x'",
]

_BROKEN_BYTES = [b"\xff", b"\x80", b"\xc3", b"\xc3(", b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80",
                 b"\xe2\x82", b"\x00", b"\x01", b"\n", b"\\", b'"', b",", b":", b"}", b"]", b"{", b"["]


def _json_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _values(names: list[str]):
    leaf = st.one_of(
        st.sampled_from(_VALUE_TEXTS),
        st.integers(-(2 ** 70), 2 ** 70).map(str),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.text(max_size=6).map(_json_text),
    )
    return st.recursive(leaf, lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(st.sampled_from(names + ["zz", "a", "x"]), inner), max_size=3).map(
            lambda kvs: "{" + ",".join(_json_text(k) + ":" + v for k, v in kvs) + "}")), max_leaves=6)


def _object(names: list[str]):
    field = st.tuples(st.sampled_from(names + ["unknown", "x"]), _values(names))
    return st.lists(field, max_size=len(names) + 3).map(
        lambda kvs: "{" + ",".join(_json_text(k) + ":" + v for k, v in kvs) + "}")


@st.composite
def messages(draw, names: list[str]):
    """One Kafka message value (None is a tombstone)."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.sampled_from([None, b"", b" ", b"\t\n", b"null", b"1", b'"x"', b"[]", b"[null]", b"{}"]))
    text = draw(_object(names))
    if kind == 1:
        text = "[" + ",".join([text] + draw(st.lists(st.one_of(_object(names), _values(names)), max_size=2))) + "]"
    data = text.encode("utf-8", "surrogatepass")
    if kind == 2 and data:
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif kind == 3:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(_BROKEN_BYTES)) + data[at:]
    elif kind == 4:
        data = draw(st.sampled_from([b"\xef\xbb\xbf", b" ", b"\n\t"])) + data + draw(
            st.sampled_from([b"", b" garbage", b"}", b"{", b"\x00", b" {\"a\":1}"]))
    return data
