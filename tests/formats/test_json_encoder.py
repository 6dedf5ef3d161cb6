"""Our encoder's bytes against Flink's JsonRowDataSerializationSchema, byte for byte."""

from decimal import Decimal

import pyarrow as pa

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator.formats import types
from accelerator.formats.json_encoder import encode
from accelerator.formats.json_options import parse_options
from accelerator.testing.flink_oracle import JsonSerializer
from rows import FIRST_NANO, LAST_NANO, TIMESTAMPS, rows
from values import to_batch

SCALARS = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT NOT NULL, `f` FLOAT, "
    "`d` DOUBLE, `dec` DECIMAL(10, 2), `dec38` DECIMAL(38, 18), `dec0` DECIMAL(5, 0), "
    "`c` CHAR(3), `s` VARCHAR(2147483647), `bin` BINARY(4), `vb` VARBINARY(2147483647), `dt` DATE, "
    "`t` TIME(0), `t3` TIME(3), `ts` TIMESTAMP(3), `ts9` TIMESTAMP(9), "
    "`ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE>")
NESTED = types.parse(
    "ROW<`id` BIGINT NOT NULL, `tags` ARRAY<VARCHAR(2147483647)>, "
    "`m` MAP<VARCHAR(2147483647), DOUBLE>, "
    "`r` ROW<`a` INT, `b` ROW<`x` DECIMAL(38, 10), `y` ARRAY<TIMESTAMP(6)>>>, "
    "`am` ARRAY<MAP<VARCHAR(2147483647), ROW<`p` BOOLEAN, `q` DATE, `w` FLOAT>>>, "
    "`who` ROW<`name` VARCHAR(2147483647), `ts` TIMESTAMP(3) WITH LOCAL TIME ZONE>>")
OPTIONS = [
    {},
    {"json.encode.decimal-as-plain-number": "true", "json.timestamp-format.standard": "ISO-8601"},
    {"json.encode.ignore-null-fields": "true", "json.map-null-key.mode": "DROP"},
]

_serializers: dict = {}


def assert_same_bytes(row_type: types.DataType, options: dict, rows_: list[tuple], start: int = 0) -> None:
    """Encoding the batch of `rows_` from row `start` on (an Arrow slice: its arrays start at an
    offset) gives Flink's bytes for those rows."""
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = JsonSerializer(row_type.serializable(), options)
    expected = _serializers[key].serialize(rows_[start:])
    actual = encode(to_batch(row_type, rows_).slice(start), row_type, parse_options(options)).to_pylist()
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert a == e, f"row {start + i}: {rows_[start + i]!r}"
    assert len(actual) == len(expected)


SETTINGS = settings(max_examples=110, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "plain-iso", "ignore-nulls"])
@SETTINGS
@given(batch=rows(SCALARS, 5, 25))
def test_scalar_rows(options, batch):
    assert_same_bytes(SCALARS, options, batch)


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "plain-iso", "ignore-nulls"])
@SETTINGS
@given(batch=rows(NESTED, 5, 25))
def test_nested_rows(options, batch):
    assert_same_bytes(NESTED, options, batch)


EDGE_ROWS = [
    # NaN, the infinities, -0.0, tiny and huge doubles, Java's non-shortest digits
    (None, None, None, None, 1, float("nan"), float("nan"), None, None, None, None, None, None, None, None, None,
     None, None, None, None),
    (None, None, None, None, 2, float("inf"), float("-inf"), None, None, None, None, None, None, None, None, None,
     None, None, None, None),
    (True, -128, -32768, -2 ** 31, -2 ** 63, -0.0, 1e-7, Decimal("-99999999.99"),
     Decimal("99999999999999999999.999999999999999999"), Decimal("0"), "", "", b"", b"", 0, 0, 0, 0, 0, 0),
    (False, 127, 32767, 2 ** 31 - 1, 2 ** 63 - 1, 1e10, 1e21, Decimal("0.01"),
     Decimal("0.000000000000000001"), Decimal("10000"), "\u00e9\U0001F600", "\x00\x1f\x7f\"\\/\u2028",
     b"\x00\x01\x02\x03", b"\xff" * 7, 11016, 86_399_999, 43_200_123, -1, -1, -1),
    # leap day 2000-02-29, pre-1970 timestamps, year 0 and 10000 dates
    (None, None, None, None, 3, 1.17549435e-38, 2e23, Decimal("1.10"), Decimal("-1E-18"), Decimal("-10"),
     "abc", "line\nbreak\ttab\r", None, None, 11016, 1000, 999, 951_782_400_000_000_000,
     -86_400_000_000_001, -9_000_000_000_000_000_000),
    (None, None, None, None, 4, 3.4028235e38, 4.9e-324, None, None, None, "x", "x", None, None, -719_528,
     None, None, None, None, None),
    (None, None, None, None, 5, 1.4e-45, 1.7976931348623157e308, None, None, None, None, None, None, None,
     2_932_897, None, None, None, None, None),
]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "plain-iso", "ignore-nulls"])
def test_edge_values(options):
    assert_same_bytes(SCALARS, options, EDGE_ROWS)


def test_map_keys_are_escaped_and_ordered_as_given():
    rows_ = [(1, None, [("b", 1.0), ("a\n", None), ("\U0001F600", -0.0)], None, [], None),
             (2, [], [], (None, None), [[("", (None, None, None))], []], (None, None))]
    for options in OPTIONS:
        assert_same_bytes(NESTED, options, rows_)


# -- the native kernel's edge cases ---------------------------------------------------------------

#: Every class of character Jackson treats apart: quote, backslash, its short escapes, other
#: control characters (\u00XX), characters it leaves alone (DEL, '/', U+2028, the BMP's last), and
#: characters outside the BMP (a surrogate pair), between runs of plain text long enough to move
#: them across the kernel's 16-byte scanning steps.
_SPECIAL_CHARS = ['"', "\\", "\b", "\t", "\n", "\f", "\r", "\x00", "\x01", "\x0b", "\x1f", "\x7f", "/",
                  "\u00e9", "\u2028", "\uffff", "\U00010000", "\U0001F600", "\U0010FFFF"]
_TEXT = st.lists(st.one_of(st.sampled_from(_SPECIAL_CHARS), st.text("az 09", max_size=20), st.text(max_size=3)),
                 max_size=6).map("".join)
#: A Java int of days in epoch nanoseconds: past it Flink's TIMESTAMP text wraps, its
#: TIMESTAMP_LTZ text does not.
_INT_DAYS = 2 ** 31 * 86_400_000_000_000
#: Timestamps as TimestampData holds them: any long of epoch milliseconds with 0..999_999
#: nanoseconds, and mostly the years 0000-9999.
_NANOS = st.one_of(
    st.sampled_from([-(2 ** 63) * 10 ** 6, (2 ** 63 - 1) * 10 ** 6 + 999_999, _INT_DAYS, _INT_DAYS - 1, -_INT_DAYS,
                     -_INT_DAYS - 1, 0, -1, 1, -1_000_000_000, 999_999_999, 86_399_999_999_999]),
    st.tuples(st.integers(-(2 ** 63), 2 ** 63 - 1), st.integers(0, 999_999)).map(lambda p: p[0] * 10 ** 6 + p[1]),
    TIMESTAMPS,
    # whole seconds plus a fraction of every length from 1 to 9 digits
    st.tuples(st.integers(FIRST_NANO // 10 ** 9, LAST_NANO // 10 ** 9), st.integers(1, 9), st.integers(0, 8)).map(
        lambda s: s[0] * 1_000_000_000 + s[1] * 10 ** s[2]),
)
_DAYS = st.one_of(st.sampled_from([-719_528, -719_529, 2_932_896, 2_932_897, 0, -1, -(2 ** 31), 2 ** 31 - 1]),
                  st.integers(-(2 ** 31), 2 ** 31 - 1), st.integers(-800_000, 3_000_000))


def _int(bits: int):
    low, high = -(2 ** bits), 2 ** bits - 1
    return st.one_of(st.sampled_from([low, low + 1, -1, 0, 1, high - 1, high]), st.integers(low, high))


def _nullable(strategy):
    return st.one_of(st.none(), strategy)


#: The types the kernel writes itself, nested, next to one written in Python (DOUBLE), under field
#: names that need escaping.
KERNEL = types.parse(
    "ROW<`s` VARCHAR(2147483647), `c` CHAR(4), `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, "
    "`b` BOOLEAN, `dt` DATE, `t` TIME(0), `ts` TIMESTAMP(9), `ltz` TIMESTAMP(9) WITH LOCAL TIME ZONE, "
    "`we\"ird\\ \u00e9\U0001F600\x01` INT NOT NULL, "
    "`r` ROW<`x` VARCHAR(2147483647), `y` BIGINT, `z` ROW<`ts` TIMESTAMP(3), `d` DOUBLE>>, `d` DOUBLE>")
_KERNEL_ROW = st.tuples(
    _nullable(_TEXT), _nullable(_TEXT), _nullable(_int(7)), _nullable(_int(15)), _nullable(_int(31)),
    _nullable(_int(63)), _nullable(st.booleans()), _nullable(_DAYS), _nullable(st.integers(0, 86_399_999)),
    _nullable(_NANOS), _nullable(_NANOS), _int(31),
    _nullable(st.tuples(_nullable(_TEXT), _nullable(_int(63)),
                        _nullable(st.tuples(_nullable(_NANOS), _nullable(st.floats()))))),
    _nullable(st.floats()))
_ALL_NULL = (None,) * 11 + (0, None, None)
KERNEL_OPTIONS = [{}, {"json.timestamp-format.standard": "ISO-8601"}, {"json.encode.ignore-null-fields": "true"},
                  {"json.encode.ignore-null-fields": "true", "json.timestamp-format.standard": "ISO-8601"}]


@pytest.mark.parametrize("options", KERNEL_OPTIONS, ids=["default", "iso", "ignore-nulls", "ignore-nulls-iso"])
@SETTINGS
@given(rows_=st.lists(st.one_of(_KERNEL_ROW, st.just(_ALL_NULL)), min_size=1, max_size=25),
       start=st.integers(0, 3))
def test_kernel_edge_cases(options, rows_, start):
    assert_same_bytes(KERNEL, options, rows_, min(start, len(rows_) - 1))


#: Strings as an encode stage hands them over: a Java string's lone surrogates in their three-byte
#: form (`runtime.arrow.LoneSurrogates`), at every depth the kernel writes strings.
LONE_SURROGATES = types.parse(
    "ROW<`s` VARCHAR(2147483647), `r` ROW<`x` VARCHAR(2147483647)>, `tags` ARRAY<VARCHAR(2147483647)>, "
    "`m` MAP<VARCHAR(2147483647), INT>>")
_SURROGATE_TEXT = st.lists(st.one_of(st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00",
                                                      "\ud7ff", "\ud000", "\ue000", "\u00e9"]),
                                     st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
                                     st.text("az", max_size=17), _TEXT), max_size=6).map("".join)


def _generalized_utf8(row_type: types.DataType, rows_: list[tuple]) -> pa.RecordBatch:
    """The batch of `rows_`, each string in UTF-8 where a lone surrogate takes its three-byte form."""
    def binary(t: types.DataType) -> pa.DataType:
        if t.root == "ROW":
            return pa.struct([(f.name, binary(f.type)) for f in t.fields])
        if t.root == "ARRAY":
            return pa.list_(binary(t.children[0]))
        if t.root == "MAP":
            return pa.map_(binary(t.children[0]), binary(t.children[1]))
        return pa.binary() if t.root in ("CHAR", "VARCHAR") else types.to_arrow(t)

    def raw(v):
        if isinstance(v, str):
            return v.encode("utf-8", "surrogatepass")
        if isinstance(v, tuple):
            return tuple(raw(x) for x in v)
        if isinstance(v, list):
            return [raw(x) for x in v]
        return v

    struct = pa.array([dict(zip([f.name for f in row_type.fields], raw(r))) for r in rows_], binary(row_type))
    return pa.RecordBatch.from_struct_array(struct.view(types.to_arrow(row_type)))


@SETTINGS
@given(rows_=st.lists(st.tuples(
    _nullable(_SURROGATE_TEXT), _nullable(st.tuples(_nullable(_SURROGATE_TEXT))),
    _nullable(st.lists(_nullable(_SURROGATE_TEXT), max_size=3)),
    _nullable(st.lists(st.tuples(_SURROGATE_TEXT, _nullable(_int(31))), max_size=3,
                       unique_by=lambda kv: kv[0]))), min_size=1, max_size=10))
def test_lone_surrogates_are_escaped_as_jackson_escapes_them(rows_):
    key = (LONE_SURROGATES.serializable(), ())
    if key not in _serializers:
        _serializers[key] = JsonSerializer(LONE_SURROGATES.serializable(), {})
    expected = _serializers[key].serialize(rows_)
    actual = encode(_generalized_utf8(LONE_SURROGATES, rows_), LONE_SURROGATES, parse_options({})).to_pylist()
    assert actual == expected
