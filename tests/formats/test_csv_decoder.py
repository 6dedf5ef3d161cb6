"""Our csv decoder against Flink's CsvRowDataDeserializationSchema (built by Flink's
CsvFormatFactory from the same options), message by message: the same rows, the same records
skipped under csv.ignore-parse-errors, a FormatError at the record Flink fails on, and where the
accelerator says it does not reproduce a record, the same rows before it."""

from __future__ import annotations

from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import FormatError, csv, types
from accelerator.formats.csv_decoder import UNREPRODUCIBLE_REMEDY
from accelerator.testing.flink_oracle import CsvDeserializer, CsvSerializer
from rows import rows
from values import from_batch, same

SETTINGS = settings(max_examples=70, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])
SCALARS = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, "
    "`dec` DECIMAL(10, 2), `dmax` DECIMAL(38, 18), `s` VARCHAR(2147483647), `c` CHAR(3)>")
OPTIONS = [
    {},
    {"csv.ignore-parse-errors": "true"},
    {"csv.field-delimiter": ";", "csv.quote-character": "'", "csv.null-literal": "N/A",
     "csv.ignore-parse-errors": "true"},
    {"csv.field-delimiter": "\\t", "csv.null-literal": "\\N"},
    {"csv.field-delimiter": "|", "csv.null-literal": ""},
]
IDS = ["default", "ignore-errors", "semicolon-quote-null-ignore", "tab-null", "pipe-empty-null"]

_oracles: dict = {}


def oracle(kind, row_type: types.DataType, options: dict):
    key = (kind, row_type.serializable(), tuple(sorted(options.items())))
    if key not in _oracles:
        _oracles[key] = kind(row_type.serializable(), options)
    return _oracles[key]


def ours(row_type, options, messages):
    result = csv.decode(pa.array(messages, pa.binary()), row_type, csv.parse_options(options))
    return from_batch(row_type, result.batch), result


def assert_decodes_like_flink(row_type: types.DataType, options: dict, messages: list[bytes | None]) -> str:
    expected = oracle(CsvDeserializer, row_type, options).deserialize(messages)
    failing = next((i for i, d in enumerate(expected) if d.error is not None), None)
    try:
        got, result = ours(row_type, options, messages)
    except FormatError as e:
        if e.remedy == UNREPRODUCIBLE_REMEDY:
            assert failing is None or e.row <= failing, (e, expected[failing].error)
            want = [r for d in expected[:e.row] for r in d.rows]
            assert same(ours(row_type, options, messages[:e.row])[0]) == same(want)
            return "unreproducible"
        assert failing is not None, (e, messages[e.row], expected[e.row].rows)
        assert e.row == failing, (e, messages[failing], expected[failing].error)
        return "failed"
    assert failing is None, (messages[failing], expected[failing].error)
    want = [r for d in expected for r in d.rows]
    assert same(got) == same(want), [(m, d.rows) for m, d in zip(messages, expected)]
    kept = list(range(len(messages))) if result.kept is None else result.kept.to_pylist()
    assert kept == [i for i, d in enumerate(expected) for _ in d.rows]
    assert result.skipped == sum(1 for d in expected if not d.rows)
    return "decoded"


#: The same columns, none of them null: Flink writes a null as the null literal (by default an
#: empty field), which its own decoder then rejects for a number.
FILLED = types.parse(SCALARS.serializable().replace(">,", "> NOT NULL,").replace(", `", " NOT NULL, `")[:-1]
                     + " NOT NULL>")


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(batch=rows(FILLED, 5, 30))
def test_what_flink_writes_decodes_like_flink(options, batch):
    writer_options = {k: v for k, v in options.items() if k != "csv.ignore-parse-errors"}
    messages = oracle(CsvSerializer, SCALARS, writer_options).serialize(batch)
    assert assert_decodes_like_flink(SCALARS, options, messages) == "decoded"


#: Field texts that exercise Flink's parsing: numbers Java reads or rejects, spaces, quotes,
#: delimiters, null literals, text after quotes, empty fields.
FIELD_TEXTS = ["", " ", "1", " 1 ", "-1", "+1", "127", "128", "-129", "32768", "2147483648", "9223372036854775808",
               "1.5", ".5", "1.", "1e2", "1E400", "-0.0", "NaN", "Infinity", "-Infinity", "0x10", "1.5d", "1_000",
               "\u0661", "true", "TRUE", " true ", "yes", "99999999.995", "12.345", "1E-7", "abc", "N/A", "\\N",
               "NULL", "a b", "#x", '"q"', '"a,b"', '"a""b"', "'x'", "'a;b'", "a\"b", '"x" ', '"x"y', '"open',
               "\t1\t", "é😀", "\\", "|", ";", "\t"]
TAILS = [b"", b"", b"", b"\n", b"\r\n", b"\nrest,of,it", b"\r", b","]
BROKEN = [b"\xff", b"\x80", b"\xc3(", b"\xed\xa0\x80", b"\xef\xbb\xbf"]


@st.composite
def messages(draw, arity: int, delimiter: str):
    count = draw(st.sampled_from([arity] * 6 + [arity - 1, arity + 1, 1, 0]))
    fields = [draw(st.sampled_from(FIELD_TEXTS)) for _ in range(max(count, 0))]
    text = delimiter.join(fields).encode() + draw(st.sampled_from(TAILS))
    if draw(st.integers(0, 15)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(BROKEN)) + text[cut:]
    return text


SMALL = types.parse("ROW<`i` INT, `s` VARCHAR(2147483647), `d` DOUBLE, `b` BOOLEAN, `dec` DECIMAL(5, 2)>")


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_messages_as_a_topic_may_hold_them(options, data):
    delimiter = csv.parse_options(options).field_delimiter
    batch = data.draw(st.lists(st.one_of(messages(5, delimiter), st.none()), min_size=5, max_size=30))
    assert_decodes_like_flink(SMALL, options, batch)


def test_edge_values():
    rows_ = [(True, -128, -32768, -2 ** 31, -2 ** 63, float("nan"), float("-inf"), Decimal("-99999999.99"),
              Decimal("99999999999999999999.999999999999999999"), "a,b\n\"c\"", "x'y"),
             (False, 127, 32767, 2 ** 31 - 1, 2 ** 63 - 1, -0.0, 1e21, Decimal("0.01"), Decimal("-1E-18"), "", ""),
             (None, None, None, None, None, 1e-7, -0.0, None, None, "\r\n", " lead ")]
    for options in OPTIONS:
        writer_options = {k: v for k, v in options.items() if k != "csv.ignore-parse-errors"}
        messages_ = oracle(CsvSerializer, SCALARS, writer_options).serialize(rows_)
        assert assert_decodes_like_flink(SCALARS, options, messages_) in ("decoded", "failed")


def test_a_bad_record_names_the_row_and_the_option_to_set():
    with pytest.raises(FormatError) as caught:
        csv.decode(pa.array([b"1,a,1.5,true,1", b"x,a,1.5,true,1"]), SMALL, csv.parse_options({}))
    assert caught.value.row == 1 and "csv.ignore-parse-errors" in caught.value.remedy
    assert "field: i" in caught.value.reason


def test_ignore_parse_errors_skips_and_counts_records():
    messages_ = [b"1,a,1.5,true,1", b"1,a,1.5,true,1,extra", b"", b'1,"open', None, b"x,a,1,true,1"]
    assert assert_decodes_like_flink(SMALL, {"csv.ignore-parse-errors": "true"}, messages_) == "decoded"
    _, result = ours(SMALL, {"csv.ignore-parse-errors": "true"}, messages_)
    assert result.skipped == 4 and result.kept.to_pylist() == [0, 5]


@pytest.mark.parametrize("row_type, options, direction, fragment", [
    ("ROW<`a` TIME(4)>", {}, "decode", "TIME(4)"),
    ("ROW<`a` ARRAY<ARRAY<INT>>>", {}, "encode", "ARRAY"),
    ("ROW<`a` ARRAY<ROW<`x` INT>>>", {}, "decode", "ROW"),
    ("ROW<`a` ARRAY<TIME(6)>>", {}, "decode", "TIME(6)"),
    ("ROW<`a` MAP<INT, INT>>", {}, "encode", "MAP"),
    ("ROW<`a` ROW<`x` INT>>", {}, "encode", "ROW"),
    ("ROW<`a` INT>", {"csv.allow-comments": "true"}, "decode", "allow-comments"),
    ("ROW<`a` INT>", {"csv.escape-character": "\\"}, "decode", "escape-character"),
    ("ROW<`a` INT>", {"csv.escape-character": "^"}, "encode", "escape-character"),
    ("ROW<`a` INT>", {"csv.disable-quote-character": "true"}, "decode", "disable-quote-character"),
    ("ROW<`a` INT>", {"csv.field-delimiter": "ab"}, "encode", "single character"),
    ("ROW<`a` INT>", {"csv.field-delimiter": "x"}, "encode", "field-delimiter"),
    ("ROW<`a` INT>", {"csv.quote-character": "'", "csv.disable-quote-character": "true"}, "encode", "quote"),
    ("ROW<`a` INT>", {"csv.unknown": "1"}, "encode", "csv.unknown"),
])
def test_what_is_not_accelerated_says_why(row_type, options, direction, fragment):
    assert fragment in csv.supported(row_type, options, direction)


def test_every_listed_type_is_supported():
    assert csv.supported(SCALARS, {}, "decode") is None
    assert csv.supported(SCALARS, {"csv.field-delimiter": "\\t", "csv.null-literal": "\\N"}, "encode") is None


# -- dates, times, timestamps and bytes -------------------------------------------------------------

TEMPORAL = types.parse("ROW<`d` DATE, `t` TIME(3), `t0` TIME(0), `t2` TIME(2), `ts` TIMESTAMP(9), "
                       "`ts3` TIMESTAMP(3), `ltz` TIMESTAMP(6) WITH LOCAL TIME ZONE, `b` VARBINARY(2147483647), "
                       "`bin` BINARY(2)>")
#: Years that matter to java.sql.Date (the Julian calendar before 1582, the 1582 cutover, Julian
#: leap days the Gregorian calendar lacks) and to the formatters (4 digits, signs).
YEARS = ["0000", "0001", "0004", "0100", "0200", "0400", "1500", "1581", "1582", "1583", "1600", "1700", "1900",
         "1969", "1970", "2000", "2020", "2024", "9999", "+999", "+020", "-001", "10000", "999", "\u0661\u0669\u0667\u0660"]
MONTHS = ["01", "02", "03", "09", "10", "12", "1", "2", "+2", "00", "13", "001", ""]
DAYS = ["01", "04", "05", "14", "15", "28", "29", "30", "31", "32", "1", "9", "+5", "00", "", "1 "]
TIMES = ["00:00", "23:59", "12:00:00", "23:59:59.999999999", "12:00:00.1", "12:00:00.12", "12:00:00.1234",
         "00:00:00.000001", "12:00:00.", "24:00", "24:00:00", "23:60", "12:00:60", "1:00", "12:0", "12:00:00.1234567890",
         "12:00:00Z", " 12:00", "12:00 ", "T12:00", "99:99:99", "-1:00:00"]


@st.composite
def dates(draw):
    return f"{draw(st.sampled_from(YEARS))}-{draw(st.sampled_from(MONTHS))}-{draw(st.sampled_from(DAYS))}"


@st.composite
def random_dates(draw):
    return f"{draw(st.integers(0, 9999)):04d}-{draw(st.integers(1, 12)):02d}-{draw(st.integers(1, 31)):02d}"


@st.composite
def timestamps(draw, zone: str):
    space = draw(st.sampled_from([" ", " ", " ", "T", "  "]))
    fraction = draw(st.text("0123456789", max_size=10))
    time = draw(st.one_of(st.sampled_from(TIMES), st.just(f"{draw(st.integers(0, 23)):02d}:{draw(st.integers(0, 59)):02d}"
                                                         f":{draw(st.integers(0, 59)):02d}.{fraction}")))
    date = draw(st.one_of(dates(), random_dates()))
    return draw(st.sampled_from(["", "", " ", "\t"])) + date + space + time + draw(st.sampled_from(["", "", zone, " "]))


BASE64 = ["", "QQ==", "QR==", "QUI=", "QUJ=", "QUJD", "QQ", "QUI", " QQ== ", "QQ==QQ==", "QQ== QQ==", "Q Q==", "QQ=",
          "QQ=x", "=QQ=", "QU=D", "\tQUJD\t", "QUJDRA==", "Q", "YWJj ZGVm", "YW Jj", "\u00e9", "QQ==\x01", "AAA=", "////",
          "-_-_", "QUJD\r\nQUJD", "QQ==\\", "QUJDRA", "QUJDR==="]


@st.composite
def temporal_messages(draw):
    fields = [draw(st.one_of(dates(), random_dates())), draw(st.sampled_from(TIMES)), draw(st.sampled_from(TIMES)),
              draw(st.sampled_from(TIMES)), draw(timestamps("Z")), draw(timestamps("Z")), draw(timestamps("Z")),
              draw(st.sampled_from(BASE64)),
              draw(st.sampled_from(BASE64 + ["", "N/A"]))]
    if draw(st.integers(0, 9)) == 0:
        fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(["", "N/A", "\\N", "x"]))
    return ",".join('"' + f.replace('"', '""') + '"' if any(c in f for c in ',"\r\n') else f
                    for f in fields).encode()


TEMPORAL_OPTIONS = [{}, {"csv.ignore-parse-errors": "true"}, {"csv.ignore-parse-errors": "true", "csv.null-literal": "N/A"}]


@pytest.mark.parametrize("options", TEMPORAL_OPTIONS, ids=["default", "ignore-errors", "ignore-errors-null"])
@SETTINGS
@given(batch=st.lists(temporal_messages(), min_size=5, max_size=40))
def test_dates_times_timestamps_and_bytes_decode_like_flink(options, batch):
    assert assert_decodes_like_flink(TEMPORAL, options, batch) in ("decoded", "failed")


def test_every_day_of_chosen_years_decodes_like_flink():
    """Leap days, month ends and the 1582 cutover, day by day, as DATE and as TIMESTAMP."""
    row_type = types.parse("ROW<`d` DATE, `ts` TIMESTAMP(9)>")
    messages_ = [f"{y}-{m:02d}-{d:02d},{y}-{m:02d}-{d:02d} 23:59:59.000000001".encode()
                 for y in ("0000", "0001", "0100", "0300", "1500", "1582", "1600", "1900", "2000", "2100", "9999")
                 for m in range(1, 13) for d in range(1, 32)]
    assert assert_decodes_like_flink(row_type, {"csv.ignore-parse-errors": "true"}, messages_) == "decoded"


def test_what_flink_writes_of_dates_and_times_decodes_like_flink():
    row_type = types.parse("ROW<`d` DATE, `t` TIME(3), `ts` TIMESTAMP(9), `ltz` TIMESTAMP(9) WITH LOCAL TIME ZONE, "
                           "`b` VARBINARY(2147483647)>")
    rows_ = [(-719162, 0, -62135596800000000000, -62135596800000000000, b""),  # 0001-01-01
             (2932896, 86399999, 253402300799999999999, 253402300799999999999, bytes(range(256))),  # 9999-12-31
             (11016, 43200001, 951782400000000001, 951825600123456789, b"\x00"),  # leap days of 2000
             (-1, 1, -1, -1, b"\xff\xfe")]
    messages_ = oracle(CsvSerializer, row_type, {}).serialize(rows_)
    assert assert_decodes_like_flink(row_type, {}, messages_) == "decoded"
    got, _ = ours(row_type, {}, messages_)
    assert got[0][0] == -719162 and got[1][4] == bytes(range(256))


def test_a_bad_date_names_the_row_and_the_option_to_set():
    with pytest.raises(FormatError) as caught:
        csv.decode(pa.array([b"2020-02-29", b"2021-02-30", b"1500-02-29"]), types.parse("ROW<`d` DATE>"),
                   csv.parse_options({}))
    assert caught.value.row == 2 and "csv.ignore-parse-errors" in caught.value.remedy
    assert "field: d" in caught.value.reason


# -- arrays -----------------------------------------------------------------------------------------

ARRAYS = types.parse("ROW<`s` ARRAY<VARCHAR(2147483647)>, `i` ARRAY<INT>, `dec` ARRAY<DECIMAL(5, 2)>, "
                     "`ts` ARRAY<TIMESTAMP(3)>, `bin` ARRAY<VARBINARY(2147483647)>, `b` ARRAY<BOOLEAN>>")
ARRAY_OPTIONS = [{}, {"csv.ignore-parse-errors": "true"},
                 {"csv.ignore-parse-errors": "true", "csv.null-literal": "N", "csv.array-element-delimiter": "|"},
                 {"csv.null-literal": "", "csv.field-delimiter": "\\t"},
                 {"csv.ignore-parse-errors": "true", "csv.null-literal": "null"}]
ARRAY_IDS = ["default", "ignore-errors", "pipe-null-ignore", "tab-empty-null", "null-word"]
ELEMENTS = ["", " ", "1", " 2 ", "-3", "x", "N", "null", "1.5", "QQ==", "true", "2020-01-01 00:00:00", " N ", "|",
            ";", "a,b", 'q"', "\t"]


@st.composite
def array_texts(draw):
    elements = draw(st.lists(st.sampled_from(ELEMENTS), max_size=4))
    return draw(st.sampled_from([";", "|", ";", ";;"])).join(elements)


@st.composite
def array_messages(draw, delimiter: str):
    fields = [draw(array_texts()) for _ in ARRAYS.fields]
    if draw(st.integers(0, 7)) == 0:
        del fields[-1]
    return delimiter.join('"' + f.replace('"', '""') + '"' if any(c in f for c in ',"\r\n' + delimiter) else f
                          for f in fields).encode()


@pytest.mark.parametrize("options", ARRAY_OPTIONS, ids=ARRAY_IDS)
@SETTINGS
@given(data=st.data())
def test_arrays_with_empty_elements_and_nulls_decode_like_flink(options, data):
    delimiter = csv.parse_options(options).field_delimiter
    batch = data.draw(st.lists(array_messages(delimiter), min_size=5, max_size=30))
    assert assert_decodes_like_flink(ARRAYS, options, batch) in ("decoded", "failed")


@pytest.mark.parametrize("options", ARRAY_OPTIONS, ids=ARRAY_IDS)
@SETTINGS
@given(batch=rows(ARRAYS, 5, 20))
def test_arrays_flink_writes_decode_like_flink(options, batch):
    writer_options = {k: v for k, v in options.items() if k != "csv.ignore-parse-errors"}
    messages_ = oracle(CsvSerializer, ARRAYS, writer_options).serialize(batch)
    assert_decodes_like_flink(ARRAYS, options, messages_)


def test_an_array_column_equal_to_the_null_literal_is_an_array_of_one_null():
    row_type = types.parse("ROW<`a` ARRAY<INT>, `s` VARCHAR(2147483647)>")
    options = {"csv.null-literal": "N"}
    assert assert_decodes_like_flink(row_type, options, [b"N,N", b",", b" ,x", b"1;N,y"]) == "decoded"
    got, _ = ours(row_type, options, [b"N,N", b" ,x"])
    assert got == [([None], None), ([], "x")]


def test_dates_times_bytes_and_arrays_are_supported_both_ways():
    for direction in ("decode", "encode"):
        assert csv.supported(TEMPORAL, {}, direction) is None
        assert csv.supported(ARRAYS, {"csv.array-element-delimiter": "|", "csv.null-literal": "N"}, direction) is None
    assert "array-element-delimiter" in csv.supported(ARRAYS, {"csv.array-element-delimiter": "x"}, "decode")
