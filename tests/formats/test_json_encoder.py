"""Our encoder's bytes against Flink's JsonRowDataSerializationSchema, byte for byte."""

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings

from accelerator.formats import types
from accelerator.formats.json_encoder import encode
from accelerator.formats.json_options import parse_options
from accelerator.testing.flink_oracle import JsonSerializer
from rows import rows
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


def assert_same_bytes(row_type: types.DataType, options: dict, rows_: list[tuple]) -> None:
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = JsonSerializer(row_type.serializable(), options)
    expected = _serializers[key].serialize(rows_)
    actual = encode(to_batch(row_type, rows_), row_type, parse_options(options)).to_pylist()
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert a == e, f"row {i}: {rows_[i]!r}"
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
