"""Our csv encoder's bytes against Flink's CsvRowDataSerializationSchema (built by Flink's
CsvFormatFactory from the same options), byte for byte."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import csv, types
from accelerator.testing.flink_oracle import CsvSerializer
from rows import rows
from values import to_batch

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])
SCALARS = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, "
    "`dec` DECIMAL(10, 2), `dmax` DECIMAL(38, 18), `d0` DECIMAL(5, 0), `s` VARCHAR(2147483647), `c` CHAR(3), "
    "`bin` VARBINARY(2147483647), `dt` DATE, `tm` TIME(0), `tm3` TIME(3), `ts` TIMESTAMP(3), `ts9` TIMESTAMP(9), "
    "`ltz` TIMESTAMP(6) WITH LOCAL TIME ZONE>")
#: Strings made of the characters CSV quoting turns on.
TRICKY_TEXT = st.one_of(st.lists(st.sampled_from(list(" \t\n\r\"',;|#\\x/é😀\x00\x7f!-:N") + ["NULL", "\\N"]),
                                 max_size=8).map("".join), st.text(max_size=6),
                        st.text(st.sampled_from("ab😀"), min_size=20, max_size=28))
OPTIONS = [
    {},
    {"csv.field-delimiter": ";", "csv.quote-character": "'", "csv.null-literal": "N/A"},
    {"csv.field-delimiter": "\\t", "csv.null-literal": "\\N"},
    {"csv.field-delimiter": "|", "csv.null-literal": "NULL", "csv.escape-character": "\\"},
    {"csv.disable-quote-character": "true", "csv.write-bigdecimal-in-scientific-notation": "false"},
    {"csv.write-bigdecimal-in-scientific-notation": "true", "csv.ignore-parse-errors": "true",
     "csv.allow-comments": "true", "csv.array-element-delimiter": "|"},
]
IDS = ["default", "semicolon-single-quote", "tab-null", "pipe-escape", "unquoted-plain", "explicit"]

_serializers: dict = {}


def assert_same_bytes(row_type: types.DataType, options: dict, rows_: list[tuple]) -> None:
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = CsvSerializer(row_type.serializable(), options)
    expected = _serializers[key].serialize(rows_)
    actual = csv.encode(to_batch(row_type, rows_), row_type, csv.parse_options(options)).to_pylist()
    assert len(actual) == len(expected)
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert a == e, f"row {i}: {rows_[i]!r}"


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(batch=rows(SCALARS, 5, 40))
def test_scalar_rows(options, batch):
    assert_same_bytes(SCALARS, options, batch)


STRINGS = types.parse("ROW<`a` VARCHAR(2147483647), `b` VARCHAR(2147483647)>")


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(batch=st.lists(st.tuples(st.one_of(st.none(), TRICKY_TEXT), TRICKY_TEXT), min_size=5, max_size=40))
def test_strings_with_delimiters_quotes_and_line_breaks(options, batch):
    assert_same_bytes(STRINGS, options, batch)


EDGE_ROWS = [
    (None,) * 19,
    (True, -128, -32768, -2 ** 31, -2 ** 63, float("nan"), float("nan"), Decimal("-99999999.99"),
     Decimal("99999999999999999999.999999999999999999"), Decimal("0"), "", "", b"", 0, 0, 0, 0, 0, 0),
    (False, 127, 32767, 2 ** 31 - 1, 2 ** 63 - 1, float("inf"), float("-inf"), Decimal("0.01"),
     Decimal("-99999999999999999999.999999999999999999"), Decimal("-99999"), "a,b\n\"c\"", "x'y",
     b"\xfb\xff\xbf", 11016, 86_399_000, 86_399_999, 951_782_400_000_000_000, -1, -1),
    (None, None, None, None, 3, -0.0, -0.0, Decimal("-0.01"), Decimal("-1E-18"), Decimal("-128"), " lead ",
     "#", b"\x00" * 100, -719_528, 1000, 5, -86_400_000_000_000, -1_000_000_000_000_000_000,
     -9_223_372_036_854_775_000),
    (None, None, None, None, 4, 1e-7, 1e-7, Decimal("1.28"), Decimal("1E-7"), Decimal("1"), "NULL", "\\N",
     None, 2_932_896, None, None, 9_223_372_036_854_775_807 // 1_000_000 * 1_000_000, 1, 1),
    (None, None, None, None, 5, 1e21, 1e21, None, Decimal("12345678901234567890"), None, "\r\n", "\t",
     None, -1, None, None, 1_583_020_800_000_000_000, 0, -2_208_988_800_000_000_000),
    # the years 0000 and 9999, and any long of milliseconds Flink holds (its day past a Java int)
    (None, None, None, None, 6, None, None, None, None, None, None, None, None, None, None, None,
     -62_167_219_200_000_000_000, 253_402_300_799_999_999_999, -(2 ** 63) * 10 ** 6),
    (None, None, None, None, 7, None, None, None, None, None, None, None, None, None, None, None,
     (2 ** 63 - 1) * 10 ** 6 + 999_999, 2 ** 31 * 86_400_000_000_000 - 1, 2 ** 31 * 86_400_000_000_000),
]


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_edge_values(options):
    assert_same_bytes(SCALARS, options, EDGE_ROWS)


def test_sliced_batches_encode_like_whole_ones():
    batch = to_batch(SCALARS, EDGE_ROWS)
    options = csv.parse_options({})
    assert csv.encode(batch.slice(2, 3), SCALARS, options).to_pylist() == csv.encode(batch, SCALARS, options).to_pylist()[2:5]


ARRAYS = types.parse(
    "ROW<`s` ARRAY<VARCHAR(2147483647)>, `i` ARRAY<INT>, `d` ARRAY<DOUBLE>, `dec` ARRAY<DECIMAL(5, 2)>, "
    "`b` ARRAY<BOOLEAN>, `bin` ARRAY<VARBINARY(2147483647)>, `dt` ARRAY<DATE>, `tm` ARRAY<TIME(0)>, "
    "`ts` ARRAY<TIMESTAMP(9)>, `ltz` ARRAY<TIMESTAMP(3) WITH LOCAL TIME ZONE>, `nn` ARRAY<INT NOT NULL>>")


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(batch=rows(ARRAYS, 5, 30))
def test_array_rows(options, batch):
    assert_same_bytes(ARRAYS, options, batch)


STRING_ARRAYS = types.parse("ROW<`a` ARRAY<VARCHAR(2147483647)>, `n` INT>")


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(batch=st.lists(st.tuples(st.one_of(st.none(), st.lists(st.one_of(st.none(), TRICKY_TEXT), max_size=5)),
                                st.integers(0, 9)), min_size=5, max_size=30))
def test_arrays_of_strings_with_delimiters_nulls_and_empty_elements(options, batch):
    assert_same_bytes(STRING_ARRAYS, options, batch)


def test_empty_arrays_arrays_of_one_null_and_long_arrays():
    rows_ = [([], 0), ([None], 1), ([""], 2), (["", ""], 3), (None, 4), (["a" * 30], 5), (["x"] * 13, 6),
             (["x"] * 12, 7), ([None, None], 8)]
    for options in OPTIONS:
        assert_same_bytes(STRING_ARRAYS, options, rows_)
    sliced = csv.encode(to_batch(STRING_ARRAYS, rows_).slice(3, 4), STRING_ARRAYS, csv.parse_options({}))
    assert sliced.to_pylist() == csv.encode(to_batch(STRING_ARRAYS, rows_), STRING_ARRAYS,
                                            csv.parse_options({})).to_pylist()[3:7]
