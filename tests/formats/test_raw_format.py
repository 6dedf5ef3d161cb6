"""Our raw format against Flink's RawFormatSerializationSchema / RawFormatDeserializationSchema
(built by Flink's RawFormatFactory from the same options), byte for byte and row for row."""

from __future__ import annotations

import math
import struct

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import FormatError, raw, types
from accelerator.testing.flink_oracle import RawDeserializer, RawSerializer
from rows import values as values_of
from values import from_batch, same, to_batch

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])
COLUMN_TYPES = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "VARCHAR(2147483647)",
                "CHAR(5)", "VARBINARY(2147483647)", "BINARY(4)"]
ENDIANNESS = [{}, {"raw.endianness": "little-endian"}, {"raw.endianness": "BIG-ENDIAN", "raw.charset": "utf8"}]
WIDTH = {"BOOLEAN": 1, "TINYINT": 1, "SMALLINT": 2, "INT": 4, "BIGINT": 8, "FLOAT": 4, "DOUBLE": 8}

_oracles: dict = {}


def oracle(kind, row_type: types.DataType, options: dict):
    key = (kind, row_type.serializable(), tuple(sorted(options.items())))
    if key not in _oracles:
        _oracles[key] = kind(row_type.serializable(), options)
    return _oracles[key]


def row_type(column: str) -> types.DataType:
    return types.parse(f"ROW<`v` {column}>")


def assert_encodes_like_flink(t: types.DataType, options: dict, rows_: list[tuple]) -> None:
    expected = oracle(RawSerializer, t, options).serialize(rows_)
    actual = raw.encode(to_batch(t, rows_), t, raw.parse_options(options)).to_pylist()
    assert actual == expected, [(r, e, a) for r, e, a in zip(rows_, expected, actual) if e != a][:3]


def assert_decodes_like_flink(t: types.DataType, options: dict, messages: list[bytes | None]) -> str:
    expected = oracle(RawDeserializer, t, options).deserialize(messages)
    failing = next((i for i, d in enumerate(expected) if d.error is not None), None)
    try:
        result = raw.decode(pa.array(messages, pa.binary()), t, raw.parse_options(options))
    except FormatError as e:
        if e.remedy == raw.UNREPRODUCIBLE_REMEDY:
            assert failing is None or e.row <= failing
            want = [r for d in expected[:e.row] for r in d.rows]
            got = from_batch(t, raw.decode(pa.array(messages[:e.row], pa.binary()), t,
                                           raw.parse_options(options)).batch)
            assert same(got) == same(want)
            return "unreproducible"
        assert failing is not None, (e, expected[e.row].rows)
        assert e.row == failing, (e, expected[failing].error)
        assert expected[failing].error.split(": ", 1)[1] in e.reason
        return "failed"
    assert failing is None, (failing, expected[failing].error)
    assert result.kept is None and result.skipped == 0
    assert same(from_batch(t, result.batch)) == same([r for d in expected for r in d.rows])
    return "decoded"


@pytest.mark.parametrize("options", ENDIANNESS, ids=["default", "little", "big-utf8"])
@pytest.mark.parametrize("column", COLUMN_TYPES)
@SETTINGS
@given(data=st.data())
def test_rows_encode_like_flink(column, options, data):
    t = row_type(column)
    batch = data.draw(st.lists(values_of(t.fields[0].type).map(lambda v: (v,)), min_size=10, max_size=60))
    assert_encodes_like_flink(t, options, batch)


def _messages(column: str):
    """Values as a topic may hold them: mostly the right width, sometimes not, some tombstones."""
    root = column.split("(")[0]
    width = WIDTH.get(root)
    right = st.binary(min_size=width, max_size=width) if width else st.binary(max_size=16)
    text = st.text(max_size=10).map(lambda s: s.encode("utf-8"))
    message = st.one_of(right, right, right, text, st.none()) if width else st.one_of(right, text, text, st.none())
    wrong = st.binary(max_size=10)
    return st.lists(message, min_size=10, max_size=60), st.one_of(st.none(), wrong)


@pytest.mark.parametrize("options", ENDIANNESS, ids=["default", "little", "big-utf8"])
@pytest.mark.parametrize("column", COLUMN_TYPES)
@SETTINGS
@given(data=st.data())
def test_messages_decode_like_flink(column, options, data):
    t = row_type(column)
    batch_strategy, odd = _messages(column)
    batch = data.draw(batch_strategy)
    extra = data.draw(odd)
    if extra is not None:
        batch.insert(data.draw(st.integers(0, len(batch))), extra)
    assert_decodes_like_flink(t, options, batch)


EDGE_DOUBLES = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1e-7, 1e21, 5e-324, 1.7976931348623157e308]


@pytest.mark.parametrize("options", ENDIANNESS[:2], ids=["big", "little"])
def test_edge_numbers_round_trip_like_flink(options):
    assert_encodes_like_flink(row_type("DOUBLE"), options, [(v,) for v in EDGE_DOUBLES] + [(None,)])
    floats = [struct.unpack("f", struct.pack("f", v))[0] if math.isfinite(v) and abs(v) < 3e38 else v
              for v in EDGE_DOUBLES if not (v != 0 and abs(v) < 1e-38)]
    assert_encodes_like_flink(row_type("FLOAT"), options, [(v,) for v in floats])
    for column in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        bits = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}[column]
        edges = [(-(2 ** bits),), (2 ** bits - 1,), (0,), (-1,), (None,)]
        assert_encodes_like_flink(row_type(column), options, edges)
    packed = [struct.pack(">d" if not options else "<d", v) for v in EDGE_DOUBLES]
    assert assert_decodes_like_flink(row_type("DOUBLE"), options, packed + [None]) == "decoded"


def test_strings_with_any_characters_round_trip_like_flink():
    texts = ["", "a,b\n\"c\"", "\u00e9\U0001F600", "\x00", "tab\there", None, "'\\"]
    assert_encodes_like_flink(row_type("VARCHAR(2147483647)"), {}, [(s,) for s in texts])
    messages = [None if s is None else s.encode() for s in texts]
    assert assert_decodes_like_flink(row_type("VARCHAR(2147483647)"), {}, messages) == "decoded"


def test_a_string_that_is_not_utf8_is_reported_not_guessed():
    messages = [b"ok", b"bad\xff", b"later"]
    assert assert_decodes_like_flink(row_type("VARCHAR(2147483647)"), {}, messages) == "unreproducible"
    with pytest.raises(FormatError) as caught:
        raw.decode(pa.array(messages), row_type("VARCHAR(10)"), raw.parse_options({}))
    assert caught.value.row == 1 and "UTF-8" in caught.value.reason


def test_a_wrong_size_names_the_record_and_what_flink_says():
    messages = [b"\x00\x00\x00\x01", b"\x00\x01", b"\x00\x00\x00\x02"]
    assert assert_decodes_like_flink(row_type("INT"), {}, messages) == "failed"
    with pytest.raises(FormatError) as caught:
        raw.decode(pa.array(messages), row_type("INT"), raw.parse_options({}))
    assert caught.value.row == 1 and "is not 4" in caught.value.reason and "2 bytes" in caught.value.reason


def test_tombstones_are_null_values_both_ways():
    t = row_type("BIGINT")
    assert oracle(RawSerializer, t, {}).serialize([(None,)]) == [None]
    assert raw.encode(to_batch(t, [(None,), (5,)]), t, raw.parse_options({})).to_pylist()[0] is None
    assert assert_decodes_like_flink(t, {}, [None, None]) == "decoded"


def test_sliced_batches_encode_like_whole_ones():
    t = row_type("INT")
    batch = to_batch(t, [(i if i % 3 else None,) for i in range(20)])
    whole = raw.encode(batch, t, raw.parse_options({})).to_pylist()
    assert raw.encode(batch.slice(5, 9), t, raw.parse_options({})).to_pylist() == whole[5:14]
    values = pa.array([struct.pack(">i", i) if i % 4 else None for i in range(20)], pa.binary())
    part = raw.decode(values.slice(3, 10), t, raw.parse_options({}))
    assert from_batch(t, part.batch) == from_batch(t, raw.decode(values, t, raw.parse_options({})).batch)[3:13]


@pytest.mark.parametrize("row_type_text, options, fragment", [
    ("ROW<`a` INT, `b` INT>", {}, "exactly one column"),
    ("ROW<`a` DECIMAL(10, 2)>", {}, "DECIMAL"),
    ("ROW<`a` TIMESTAMP(3)>", {}, "TIMESTAMP"),
    ("ROW<`a` INT>", {"raw.endianness": "middle"}, "raw.endianness"),
    ("ROW<`a` VARCHAR(5)>", {"raw.charset": "windows-1252"}, "UTF-8"),
    ("ROW<`a` INT>", {"raw.line-delimiter": "\n"}, "raw.line-delimiter"),
])
def test_what_is_not_accelerated_says_why(row_type_text, options, fragment):
    assert fragment in raw.supported(row_type_text, options, "encode")
    assert fragment in raw.supported(row_type_text, options, "decode")


@pytest.mark.parametrize("column", COLUMN_TYPES)
def test_every_listed_type_is_supported(column):
    assert raw.supported(f"ROW<`v` {column}>", {"raw.charset": "UTF-8", "raw.endianness": "Little-Endian"}) is None


CHARSET_TEXTS = ["", "plain ascii", "café ÿ", "€ not latin-1", "emoji 😀 pair", "\u00ff\u0100", "tab\tnul\x00", None]
CHARSET_BYTES = [b"", b"ascii", bytes(range(256)), b"\xe9t\xe9", b"\x80\xff", None]


@pytest.mark.parametrize("charset", ["ISO-8859-1", "latin1", "US-ASCII", "UTF-16BE", "UTF-16LE"])
def test_a_string_encodes_in_its_charset_like_flink_unmappable_characters_as_question_marks(charset):
    t = row_type("VARCHAR(2147483647)")
    assert raw.supported(t, {"raw.charset": charset}, "encode") is None
    assert_encodes_like_flink(t, {"raw.charset": charset}, [(v,) for v in CHARSET_TEXTS])


@pytest.mark.parametrize("charset", ["ISO-8859-1", "US-ASCII"])
def test_a_single_byte_charset_decodes_like_flink_unmappable_bytes_as_replacement_characters(charset):
    t = row_type("VARCHAR(2147483647)")
    assert raw.supported(t, {"raw.charset": charset}, "decode") is None
    assert assert_decodes_like_flink(t, {"raw.charset": charset}, CHARSET_BYTES) != "unreproducible"


def test_utf16_is_refused_when_decoding():
    assert "when decoding" in raw.supported(row_type("VARCHAR(2147483647)"), {"raw.charset": "UTF-16LE"}, "decode")
