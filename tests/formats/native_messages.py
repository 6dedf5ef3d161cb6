"""Hypothesis strategies for json messages at the edges of the native fast path's rules: each field
gets mostly a value of its own type's forms, plain or at an edge (escapes and surrogates, number
texts at the parser's and the types' limits, temporal text at the ends of the years the fast path
takes), sometimes another type's; between tokens any whitespace Jackson skips or a byte it does
not; unknown fields holding nested values, duplicate and escaped field names, and bytes before
the object and after its closing brace."""

from __future__ import annotations

import functools

from hypothesis import strategies as st

from accelerator.formats import types

_STRINGS = [
    '""', '"plain"', '"a\\"b\\\\c\\/d"', '"\\b\\f\\n\\r\\t"', '"\\u0000"', '"\\u00e9\\u00E9"', '"\\u20ac"',
    '"\\ud83d\\ude00"', '"\\uD83D\\uDE00x"', '"\\ud800"', '"\\udc00"', '"\\ud800\\ud800"', '"\\ud800x"',
    '"\\ud800\\u0041"', '"\\udbff\\udfff"', '"\\ud83d\U0001f600"', '"\\ude00\\ud83d"', '"\\u12"', '"\\x41"',
    '"\\uGGGG"', '"caf\u00e9"', '"\U0001f600"', '"\u2028\u2029"', '"\u0080\u009f"', '"\uffff"', '"tab\there"',
    '"\x7f"', '"a\x01b"', '"a\x1fb"', '"' + "x" * 300 + '"', '"\\"', '"unterminated',
]
#: Raw bytes inside a string: invalid or loosely-read UTF-8 (overlong, an encoded surrogate, past
#: U+10FFFF, a stray continuation, a cut sequence).
_STRING_BYTES = [b'"\xc0\x80"', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b'"\x80"', b'"\xc3"', b'"\xe2\x82"',
                 b'"\xff"', b'"\xe0\x80\xaf"', b'"\xf0\x8f\xbf\xbf"', b'"\xc3\xa9"', b'"\xf0\x9f\x98\x80"']
_INTEGERS = [
    "0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "32767", "32768", "-32768", "-32769",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "01", "-01", "00", "1" * 1000,
    "1" * 1001, "-" + "9" * 999, "-", "--1", "+1", "1x", "0x1",
]
_FLOATS = [
    "1.5", "-1.5", "0.0", "-0.0", "0e10", "0.000e-5", "1e5", "1E+5", "1e-5", "1.e5", "1.", ".5", "1.5e", "1e+",
    "3.4028235e38", "3.4028236e38", "3.40282356e38", "1e39", "1.17549435e-38", "1.1754942e-38", "1.4e-45",
    "7e-46", "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "1e-400", "1e400", "-1e400",
    "16777217", "9007199254740993", "1.00000005960464477539062499", "1.000000059604644775390625",
    "1.00000005960464477539062501", "0.1", "99999999.995", "99999999.994", "12.345", "0.005", "-0.005",
    "0.0049999", "123456789012345678901234567890", "1e9999999999", "1e-9999999999",
    "0." + "0" * 900 + "1", "1" * 500 + "." + "5" * 499, "9.999999999999999e22", "2.5e-3", "-2.5e-3",
]
#: Number text inside strings: Java's parsers take more forms (signs, spaces, suffixes, other
#: scripts' digits) than JSON does.
_NUMBER_STRINGS = [
    '" 12 "', '"+12"', '"-0"', '"12"', '"1.5"', '"1e2"', '"+.5"', '"-.5e-3"', '"1."', '".5"', '"1.e5"', '"0x10"',
    '"1_0"', '"\uff11\uff12"', '"\u0661"', '"\\u0031\\u0032"', '""', '" "', '"NaN"', '"-Infinity"', '"1.5f"', '"1d"',
    '"\\t7\\n"', '"\\u00a07"', '"99999999.995"', '"2147483648"', '"-128"', '"128"', '"1e400"', '"4.9e-324"',
]
_BOOLEANS = ["true", "false", '"true"', '"TRUE"', '" True "', '"\\u0074rue"', '"yes"', '"false"', '"\u0131"',
             '"tru\\u0065"', "truex", "tru", "True", "falsey"]
_DATES = ["0000-01-01", "0000-02-29", "0001-01-01", "9999-12-31", "+10000-01-01", "-999999999-01-01",
          "+999999999-12-31", "2020-02-29",
          "2021-02-29", "2000-02-29", "1900-02-29", "2020-04-31", "2020-04-30", "2020-13-01", "2020-00-10",
          "2020-01-00", "2020-1-1", "+2020-01-01", "-0001-01-01", "12020-01-01", "1970-01-01"]
_TIMES = ["00:00:00", "23:59:59", "23:59:59.999999999", "12:34:56.5", "24:00:00", "23:59:60", "23:60:00",
          "12:34:56.", "12:34:56.1234567891", "12:34", "1:2:3", "12:34:56Z"]
_FRACTIONS = ["", ".1", ".123", ".999999999", ".1234567891", "."]
_NON_SCALARS = ["null", "nul", "nulls", "{}", "[]", "[1]", '{"a":1}', "NaN", "Infinity", "-Infinity", "'x'"]
#: Values for fields the row does not have: any JSON, nested, and some that Flink's parser refuses.
_UNKNOWN_VALUES = [
    '{"a":[1,{"b":[[]]},"x\\"y"],"c":{}}', "[[[[]]]]", '{"":""}', "[]", "{}", '[1,"2",{"3":[4.5e6,null,true]}]',
    '{"a":{"b":{"c":{"d":[-0.0,1E+2]}}}}', '["\\ud800","\\u00e9",""]', "[" * 40 + "]" * 40, '{"a":01}', "[1,]",
    '{"a"}', "[1 2]", '{"a":NaN}', "[tru]", '{"a":1,}', '["a\x01"]', '{"\xff":1}', "[}", '{"a":1]', '"\\q"',
]
_SPACES = ["", "", "", " ", "\n", "\t", "\r\n", "  \t ", "\x0b", "\x0c", "\u00a0", "\x00"]
_BEFORE = [b"", b"", b" ", b"\n\t ", b"\xef\xbb\xbf", b"\x00"]
_AFTER = [b"", b"", b" ", b"\n", b"garbage", b"}", b"{", b"]", b"\x00", b",{}", b"\xff", b'{"i":1}']


# The strategies are built once and reused by every draw: a strategy built anew inside a draw is
# validated anew each time, which cost most of a test's time (the values drawn are the same).

@functools.cache
def _timestamps(ltz: bool):
    """Timestamp text in both standards' layouts, the right one for the option or not."""
    return st.builds(lambda date, separator, time, fraction, zone: f'"{date}{separator}{time}{fraction}{zone}"',
                     st.sampled_from(_DATES), st.sampled_from([" ", "T", "t", "  "]),
                     st.sampled_from(["00:00:00", "23:59:59", "12:34:56", "24:00:00", "12:34", "00:12:43"]),
                     st.sampled_from(_FRACTIONS), st.sampled_from(["Z", "Z", "", "z"] if ltz else ["", "", "Z"]))


@functools.cache
def _of_type(t: types.DataType, depth: int):
    """Value texts for a field of type `t` (its own forms, mostly)."""
    root = t.root
    if root == "ROW":
        return _object(t, depth + 1) if depth < 3 else st.just("{}")
    if root == "BOOLEAN":
        own = st.sampled_from(_BOOLEANS)
    elif root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        own = st.one_of(st.sampled_from(_INTEGERS), st.integers(-(2 ** 64), 2 ** 64).map(str),
                        st.sampled_from(_NUMBER_STRINGS))
    elif root in ("FLOAT", "DOUBLE", "DECIMAL"):
        own = st.one_of(st.sampled_from(_FLOATS + _INTEGERS[:20]), st.sampled_from(_NUMBER_STRINGS),
                        st.floats(allow_nan=False, allow_infinity=False).map(repr),
                        st.integers(0, 20).flatmap(lambda places: st.decimals(
                            allow_nan=False, allow_infinity=False, places=places)).map(str))
    elif root in ("CHAR", "VARCHAR"):
        own = st.one_of(st.sampled_from(_STRINGS), st.text(max_size=8).map(
            lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'), st.sampled_from(_INTEGERS + _FLOATS),
            st.sampled_from(["true", "false"]))
    elif root == "DATE":
        own = st.sampled_from(_DATES).map(lambda d: f'"{d}"')
    elif root == "TIME":
        own = st.sampled_from(_TIMES).map(lambda d: f'"{d}"')
    else:
        own = _timestamps(root == types.TIMESTAMP_LTZ)
    return own


_OTHER_TYPE = st.one_of(st.sampled_from(_NON_SCALARS), st.sampled_from(_STRINGS), st.sampled_from(_FLOATS))
_SPACE = st.sampled_from(_SPACES)
_UNKNOWN = st.sampled_from(_UNKNOWN_VALUES)


@functools.cache
def _object(row_type: types.DataType, depth: int = 0):
    """An object for `row_type`: its fields (some twice, some under escaped names), unknown ones."""
    names = [f.name for f in row_type.fields]
    by_name = {f.name: _of_type(f.type, depth) for f in row_type.fields}
    every = st.permutations(names)
    extra = st.lists(st.sampled_from(names + ["unknown"]), max_size=2)
    some = st.lists(st.sampled_from(names + ["unknown", "x"]), max_size=len(names) + 3)

    @st.composite
    def build(draw):
        if draw(st.integers(0, 3)) == 0:  # every field, for json.fail-on-missing-field
            chosen = draw(every) + draw(extra)
        else:
            chosen = draw(some)
        members = []
        for name in chosen:
            if name in by_name:
                if draw(st.integers(0, 9)) == 0:  # another type's value, or a non-scalar one
                    value = draw(_OTHER_TYPE)
                else:
                    value = draw(by_name[name])
                if draw(st.integers(0, 9)) == 0:
                    name = "".join(f"\\u{ord(c):04x}" if draw(st.booleans()) else c for c in name)
            else:
                value = draw(_UNKNOWN)
            space = [draw(_SPACE) for _ in range(4)]
            members.append(f'{space[0]}"{name}"{space[1]}:{space[2]}{value}{space[3]}')
        return "{" + ",".join(members) + draw(_SPACE) + "}"
    return build()


@st.composite
def native_messages(draw, row_type: types.DataType):
    """One message for `row_type`, as bytes (with raw bytes spliced into a string now and then)."""
    text = draw(_object(row_type)).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        at = text.find(b'"plain"')
        if at >= 0:
            text = text[:at] + draw(st.sampled_from(_STRING_BYTES)) + text[at + 7:]
    return draw(st.sampled_from(_BEFORE)) + text + draw(st.sampled_from(_AFTER))
