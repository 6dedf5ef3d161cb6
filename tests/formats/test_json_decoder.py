"""Our json decoder against Flink's JsonParserRowDataDeserializationSchema, message by message."""

from __future__ import annotations

import base64
from dataclasses import replace
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.bench import nexmark
from accelerator.bench.formats import inputs
from accelerator.formats import FormatError, java_hash_map, json_fast_path, types
from accelerator.formats.json_converters import MessageDecoder, Unreproducible
from accelerator.formats.json_decoder import JsonDecoder, decode, project
from accelerator.formats.json_options import parse_options
from accelerator.plans.nested_fields import with_parent_nulls
from accelerator.testing.flink_oracle import JsonDeserializer, JsonSerializer
from messages import messages
from native_messages import native_messages
from rows import rows
from values import from_batch, same

SCALARS = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, "
    "`dec` DECIMAL(10, 2), `dec38` DECIMAL(38, 18), `c` CHAR(3), `s` VARCHAR(2147483647), `dt` DATE, "
    "`t` TIME(0), `t3` TIME(3), `ts` TIMESTAMP(3), `ts9` TIMESTAMP(9), `ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE>")
NESTED = types.parse(
    "ROW<`id` BIGINT, `tags` ARRAY<VARCHAR(2147483647)>, "
    "`r` ROW<`a` INT, `b` ROW<`x` DECIMAL(38, 10), `y` ARRAY<TIMESTAMP(6)>>>, "
    "`ad` ARRAY<ROW<`p` BOOLEAN, `q` DATE, `w` FLOAT>>, "
    "`who` ROW<`name` VARCHAR(2147483647), `ts` TIMESTAMP(3) WITH LOCAL TIME ZONE>>")
NEXMARK = types.parse(
    "ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` VARCHAR(2147483647), "
    "`url` VARCHAR(2147483647), `dateTime` TIMESTAMP(3), `extra` VARCHAR(2147483647)>")
BYTES_AND_MAPS = types.parse(
    "ROW<`b` VARBINARY(2147483647), `f` BINARY(4), `m` MAP<VARCHAR(2147483647), INT>, "
    "`mb` MAP<VARCHAR(2147483647), VARBINARY(2147483647)>, "
    "`am` ARRAY<MAP<VARCHAR(2147483647), ROW<`x` INT, `y` ARRAY<VARBINARY(2147483647)>>>>, "
    "`r` ROW<`mm` MAP<CHAR(2), MAP<VARCHAR(2147483647), BOOLEAN>>>, `i` INT>")
MAPS = types.parse(
    "ROW<`m` MAP<VARCHAR(2147483647), INT>, `am` ARRAY<MAP<VARCHAR(2147483647), VARCHAR(2147483647)>>, "
    "`r` ROW<`mm` MAP<CHAR(2), MAP<VARCHAR(2147483647), BOOLEAN>>>, `i` INT>")
#: The standard Nexmark table's shape: scalars and nested ROWs of scalars, the fast path's nested case.
NESTED_ROWS = types.parse(
    "ROW<`event_type` INT, `person` ROW<`id` BIGINT, `name` VARCHAR(2147483647), `dateTime` TIMESTAMP(3)>, "
    "`bid` ROW<`auction` BIGINT, `price` DECIMAL(10, 2), `flag` BOOLEAN, `inner` ROW<`t` TIME(0), `d` DATE>>>")
OPTIONS = {
    "default": {},
    "iso": {"json.timestamp-format.standard": "ISO-8601"},
    "ignore": {"json.ignore-parse-errors": "true"},
    "fail-missing": {"json.fail-on-missing-field": "true"},
}
# No shrinking: each step would call the JVM again; a failure prints the whole generated batch.
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])

#: Adversarial messages are cheap to decode; about 11,000 messages run in all.
ADVERSARIAL = settings(SETTINGS, max_examples=60)

_oracles: dict = {}
_serializers: dict = {}


def flink_bytes(row_type: types.DataType, options: dict, batch: list[tuple]) -> list[bytes]:
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = JsonSerializer(row_type.serializable(), options)
    return _serializers[key].serialize(batch)


def flink(row_type: types.DataType, options: dict, projection=None) -> JsonDeserializer:
    key = (row_type.serializable(), tuple(sorted(options.items())), tuple(projection or ()))
    if key not in _oracles:
        _oracles[key] = JsonDeserializer(row_type.serializable(), options, projection)
    return _oracles[key]


def assert_batch_matches_flink(row_type: types.DataType, options: dict, batch: list[bytes | None],
                               projection=None) -> None:
    """decode() gives Flink's rows in order, `kept` names their messages, and without
    json.ignore-parse-errors it fails on the first message Flink fails on."""
    produced = project(row_type, projection)
    expected = flink(row_type, options, projection).deserialize(batch)
    failing = [i for i, d in enumerate(expected) if d.error is not None]
    values = pa.array(batch, pa.binary())
    if failing:
        with pytest.raises(FormatError) as caught:
            decode(values, row_type, parse_options(options), projection)
        assert caught.value.row == failing[0], caught.value
        return
    result = decode(values, row_type, parse_options(options), projection)
    want_rows = [r for d in expected for r in d.rows if r is not None]
    want_kept = [i for i, d in enumerate(expected) for r in d.rows if r is not None]
    assert same(from_batch(produced, result.batch)) == same(want_rows)
    kept = list(range(len(batch))) if result.kept is None else result.kept.to_pylist()
    assert kept == want_kept
    assert result.null_rows == sum(r is None for d in expected for r in d.rows)


def reproducible(row_type: types.DataType, options: dict, batch: list[bytes | None]) -> list[bytes | None]:
    """The messages our decoder does not refuse. The refused ones are never sent to the oracle:
    on some of them Flink's decoder loops forever."""
    decoder = MessageDecoder(row_type, parse_options(options))
    kept = []
    for message in batch:
        try:
            decoder.decode(message)
        except Unreproducible:
            continue
        kept.append(message)
    return kept


def assert_messages_match_flink(row_type: types.DataType, options: dict, batch: list[bytes | None]) -> None:
    """The exact path, message by message: the same rows (null rows included) or a failure."""
    batch = reproducible(row_type, options, batch)
    expected = flink(row_type, options).deserialize(batch)
    decoder = MessageDecoder(row_type, parse_options(options))
    for message, want in zip(batch, expected):
        got = decoder.decode(message)
        if want.error is not None:
            assert got.failure is not None, (message, got.rows, want.error)
        else:
            assert got.failure is None, (message, got.failure, want.rows)
            assert same(got.rows) == same(want.rows), message


# -- (a) Flink's own bytes come back as Flink's rows -----------------------------------------------

@pytest.mark.parametrize("options", ["default", "iso", "ignore"])
@SETTINGS
@given(batch=rows(SCALARS, 5, 25))
def test_scalar_rows_round_trip(options, batch):
    opts = OPTIONS[options]
    assert_batch_matches_flink(SCALARS, opts, flink_bytes(SCALARS, opts, batch))


@pytest.mark.parametrize("options", ["default", "iso"])
@SETTINGS
@given(batch=rows(NESTED, 5, 25))
def test_nested_rows_round_trip(options, batch):
    opts = OPTIONS[options]
    assert_batch_matches_flink(NESTED, opts, flink_bytes(NESTED, opts, batch))


@pytest.mark.parametrize("options", ["default", "iso", "ignore"])
@SETTINGS
@given(batch=rows(NESTED_ROWS, 5, 25))
def test_nested_scalar_rows_round_trip(options, batch):
    opts = OPTIONS[options]
    assert_batch_matches_flink(NESTED_ROWS, opts, flink_bytes(NESTED_ROWS, opts, batch))


def test_well_formed_nested_rows_take_the_fast_path():
    batch = [(2, None, (7, Decimal("1.25"), True, (1000, 10))), (0, (1, "x", 1_000_000), None), (1, None, None)]
    fast = json_fast_path.decode(pa.array(flink_bytes(NESTED_ROWS, {}, batch), pa.binary()), NESTED_ROWS,
                                 parse_options({}))
    assert fast is not None and fast.leftover is None and fast.batch.num_rows == 3


def test_well_formed_scalar_rows_take_the_fast_path():
    batch = [(True, 1, 2, 3, 4, 1.5, 2.5, Decimal("1.25"), Decimal("0.5"), "abc", "x", 10, 1000, 1001,
              1_000_000, 1, 2_000_000)] * 3
    fast = json_fast_path.decode(pa.array(flink_bytes(SCALARS, {}, batch), pa.binary()), SCALARS, parse_options({}))
    assert fast is not None and fast.leftover is None and fast.batch.num_rows == 3


def test_messages_left_to_the_exact_path_are_counted():
    plain = b'{"auction":1,"bidder":2,"price":3,"channel":"c","url":"u","dateTime":"2026-01-01 00:00:00","extra":""}'
    # floats for a BIGINT, which Flink reads (as 1 and 100) and only the exact path takes
    left = [b'{"auction":1.0,"price":3}', b'{"price":1e2}']
    values = pa.array([plain, left[0], plain, left[1], plain], pa.binary())
    result = decode(values, NEXMARK, parse_options({}))
    assert result.exact_path == 2 and result.batch.column("price").to_pylist() == [3, 3, 3, 100, 3]
    assert decode(pa.array([plain] * 4, pa.binary()), NEXMARK, parse_options({})).exact_path == 0


# -- (b) adversarial messages, one by one and as batches --------------------------------------------

@pytest.mark.parametrize("options", ["default", "ignore", "fail-missing", "iso"])
@pytest.mark.parametrize("row_type", [SCALARS, NESTED, MAPS, BYTES_AND_MAPS],
                         ids=["scalars", "nested", "maps", "bytes-and-maps"])
@ADVERSARIAL
@given(data=st.data())
def test_adversarial_messages(options, row_type, data):
    names = [f.name for f in row_type.fields]
    drawn = data.draw(st.lists(messages(names), min_size=10, max_size=30))
    assert_messages_match_flink(row_type, OPTIONS[options], drawn)


@pytest.mark.parametrize("options", ["default", "ignore"])
@pytest.mark.parametrize("row_type", [NEXMARK, NESTED_ROWS], ids=["flat", "nested"])
@SETTINGS
@given(data=st.data())
def test_adversarial_batches(options, row_type, data):
    names = [f.name for f in row_type.fields]
    drawn = data.draw(st.lists(messages(names), min_size=5, max_size=30))
    assert_batch_matches_flink(row_type, OPTIONS[options], reproducible(row_type, OPTIONS[options], drawn))


# -- (c) fixed edge cases ---------------------------------------------------------------------------

EDGES = [
    b'{"dt":"2000-02-29","ts":"2000-02-29 23:59:59.999","ltz":"1900-02-28 00:00:00Z"}',
    b'{"dt":"1900-02-29"}', b'{"ts":"1900-02-29 00:00:00"}', b'{"ts":"1969-12-31 23:59:59.999999999"}',
    b'{"ts9":"0000-01-01 00:00:00.000000001"}', b'{"dt":"-0001-01-01","t":"00:00:00.999"}',
    b'{"ts9":"-999999999-01-01 00:00:00","ltz":"+999999999-12-31 23:59:59.999999999Z"}',
    b'{"ts":"+292278994-08-17 07:12:55.807","ltz":"-292275055-05-16 16:47:04.192Z"}',
    b'{"ts":"+292278994-08-17 07:12:55.808","ltz":"-292275055-05-16 16:47:04.191999999Z"}',
    b'{"dec38":99999999999999999999.999999999999999999}', b'{"dec38":-99999999999999999999.9999999999999999995}',
    b'{"dec38":100000000000000000000}', b'{"dec":"\xd9\xa1\xd9\xa2.5"}',
    b'{"s":"\\u00e9\\ud83d\\ude00\\u0000\\ud800x"}', b'{"s":"\\uDBFF\\uDFFF"}', b'{"c":"\xf0\x9f\x98\x80 too long"}',
    b'{"d":-0.0,"f":-0.0}', b'{"d":1e-7,"f":1e-7}', b'{"d":1e21,"f":1e21}', b'{"d":4.9e-324,"f":1.4e-45}',
    b'{"f":1.00000005960464477539062499}', b'{"f":1.000000059604644775390625}', b'{"f":"3.4028235677973366e38"}',
    b'{"f":0.000000000000000000000000000000000000000000701}', b'{"d":"0x1.8p1"}', b'{"d":"1d"}',
    b'{"bi":-9223372036854775808,"i":-2147483648,"si":-32768,"ti":-128}',
    b'{"bi":9.2233720368547758e18,"i":-2147483648.9}', b'{"s":{"k":[1,2.50,"x"],"k":{}}}',
    b'{"s":[1e400,-1e400,0.0,1E-5,123456789.0]}', b'{"b":{"s":"inner"},"s":"outer"}',
    b'{"s":' + b"[" * 1000 + b"]" * 1000 + b"}", b'{"s":' + b"[" * 1001 + b"]" * 1001 + b"}",
    b'{"i":"' + b"1" * 2000 + b'"}', b'{"d":' + b"1" * 1001 + b"}",
    b'{"f":1.00000005960464477539062501}', b'{"f":"1.00000005960464477539062501"}',
    # where the parser stands after a failure that json.ignore-parse-errors turns into a null field
    b'{"s":{"d":nul,"f":1},"i":2}', b'{"s":{"x":NaN},"i":2}', b'{"s":{"x":1 x},"i":2}', b'{"s":{"x"1},"i":2}',
    b'{"s":"\xc3(","i":2}', b'{"s":"\\xc3(","i":2}', b'{"s":"ab\\q","i":2}', b'{"i":{"b":true,"s":"in"},"s":"out"}',
    b'{"b":[1,"s",2],"i":5}', b'{"s":[1,2}', b'{"dt":+1,"i":2}', b'{"i":tru,"s":"x"}', b'{"i":-Infinity,"s":1}',
]


@pytest.mark.parametrize("options", ["default", "ignore", "iso"])
def test_edge_messages(options):
    assert_messages_match_flink(SCALARS, OPTIONS[options], EDGES)


@pytest.mark.parametrize("options", ["ignore", "iso"])
def test_edge_batches(options):
    """The same edge cases through decode(), one per batch so that each meets the fast path."""
    opts = OPTIONS[options] if options == "ignore" else {**OPTIONS[options], **OPTIONS["ignore"]}
    for message in reproducible(SCALARS, opts, EDGES):
        assert_batch_matches_flink(SCALARS, opts, [message, b'{"i":1}'])


def test_projection_decodes_like_flinks_projected_decoder():
    row_type = NEXMARK
    batch = [b'{"auction":1,"auction":2,"price":3,"url":"u"}', b'{"price":"7","extra":"e","auction":1}',
             b'{"url":"a","bidder":1,"price":2}']
    for projection in (["price", "auction"], ["url"], ["extra", "bidder", "price"]):
        assert_batch_matches_flink(row_type, {}, batch, projection)


def test_tombstones_empty_messages_and_arrays():
    row_type = types.parse("ROW<`a` INT>")
    result = decode(pa.array([None, b"", b'[{"a":1},{"a":2}]', b"[]", b'{"a":3}'], pa.binary()), row_type,
                    parse_options({}))
    assert from_batch(row_type, result.batch) == [(1,), (2,), (3,)]
    assert result.kept.to_pylist() == [2, 2, 4] and result.skipped == 0


def test_broken_records_are_skipped_or_nulled_under_ignore_parse_errors():
    row_type = types.parse("ROW<`a` INT, `b` BOOLEAN>")
    result = decode(pa.array([b'{"a":"x","b":true}', b'{"a":', b"  ", b'{"a":2}'], pa.binary()), row_type,
                    parse_options({"json.ignore-parse-errors": "true"}))
    assert from_batch(row_type, result.batch) == [(None, True), (2, None)]
    assert result.kept.to_pylist() == [0, 3]
    assert (result.skipped, result.null_rows) == (2, 1)


def test_a_bad_record_names_its_message_and_the_remedy():
    with pytest.raises(FormatError) as caught:
        decode(pa.array([b'{"a":1}', b'{"a":1', b'{"a":'], pa.binary()), types.parse("ROW<`a` INT>"),
               parse_options({}))
    assert caught.value.row == 1
    assert "json.ignore-parse-errors" in caught.value.remedy


def test_null_for_a_not_null_field_fails_naming_the_message():
    with pytest.raises(FormatError) as caught:
        decode(pa.array([b'{"a":1}', b'{"b":1}'], pa.binary()), types.parse("ROW<`a` INT NOT NULL>"),
               parse_options({}))
    assert caught.value.row == 1 and "NOT NULL" in caught.value.reason


def test_timestamps_of_every_year_flink_reads_are_held_exactly():
    # Flink computes a timestamp's epoch milliseconds in a Java long: past the years it holds
    # (about 292 million either side) they wrap, and so do ours.
    row_type = types.parse("ROW<`t` TIMESTAMP(9)>")
    texts = ["0000-01-01 00:00:00", "9999-12-31 23:59:59.999999999", "+292278994-08-17 07:12:55.807999999",
             "+292278994-08-17 07:12:55.808", "-999999999-01-01 00:00:00.5"]
    batch = decode(pa.array([b'{"t":"%s"}' % t.encode() for t in texts], pa.binary()), row_type,
                   parse_options({})).batch
    # Nanoseconds since 1970 of the texts, without and with Java's wrap of the milliseconds.
    first, last = -62_167_219_200 * 10 ** 9, 253_402_300_800 * 10 ** 9 - 1
    wrapped = (2 ** 63 - 1) * 10 ** 6 + 999_999
    assert from_batch(row_type, batch) == [(first,), (last,), (wrapped,), (-(2 ** 63) * 10 ** 6,),
                                           ((-31_557_014_135_596_800_000 + 2 * 2 ** 64) * 10 ** 6 + 500_000_000,)]
    assert_batch_matches_flink(row_type, {}, [b'{"t":"%s"}' % t.encode() for t in texts])


@pytest.mark.parametrize("message", [b'{\x00"\x00a\x00"\x00:\x001\x00}\x00', b'\xff\xfe{\x00}\x00'])
def test_utf16_messages_fail_loudly(message):
    with pytest.raises(FormatError) as caught:
        decode(pa.array([message], pa.binary()), types.parse("ROW<`a` INT>"), parse_options({}))
    assert "UTF-16" in caught.value.reason


@SETTINGS
@given(data=st.data())
def test_adversarial_messages_one_per_batch(data):
    """Each message alone meets the fast path, which must vouch only for what Flink reads alike."""
    opts = OPTIONS["ignore"]
    drawn = data.draw(st.lists(messages([f.name for f in SCALARS.fields]), min_size=10, max_size=30))
    expected = flink(SCALARS, opts).deserialize(reproducible(SCALARS, opts, drawn))
    for message, want in zip(reproducible(SCALARS, opts, drawn), expected):
        result = decode(pa.array([message], pa.binary()), SCALARS, parse_options(opts))
        assert same(from_batch(SCALARS, result.batch)) == same([r for r in want.rows if r is not None]), message


#: A batch hypothesis found in CI: its 7th message has the field name b"\xffb". Flink reads it as
#: "b" because an earlier message had a field "b" (the parser's name table pads the last 4-byte
#: group of a name with 0xff); alone, the message is an error.
INVALID_UTF8_NAME_BATCH = [
    b'[{"t3":{"bi":-0,"f":{"t3":1.2311236232902807e+162,"i":-Infinity}},"ts":[],"ts9":[{"bi":"12:34:56."},"2020-02-30 12:34:56"]},{"ti":["2020-01-01T12:34:56",{"a":{"dec":30.0,"b":"\xc3\x8b","x":5.048603829064218e+16},"ti":{}}],"bi":{"zz":{"dec":17553646051,"s":-6.926947986596364e+16},"bi":"1969-12-31 23:59:59.999999999","dec38":1e2},"ts":" "},{}]',
    b'{"si":[6.070126268412783e+16],"dec38":{"dec":{"f":"2020-02-30","i":"(\xf2\x91\x85\x85\x07\xf1\xa8\x81\xb6\xf0\xaa\x84\x8f\x06"},"zz":60.0},"t":{},"d":{"i":"\xc2\xa6\xc3\xa04a"}}',
    b'{}',
    b'{"x":[-93,-1.7342356292606952e+16,-1377149],"bi":{},"t":12.345,"dt":{"bi":[1.555,-3.756024724338805e+16,1.4849523260418758e+264],"dec38":":\x10\xc2\xa5\xf0\x95\xaa\x8b$\xe4\xa5\xbc"},"unknown":{}}',
    b'{"i":[],"ts9":[],"bi":[-4.8587508425188104e+16,-1.768564449191686e-132],"s":[-6.175972100015054e-254],"bi":{"dt":9007199254740992.0},"unknown":{},"t":[[-754,-30759090018,"\xc2\xb7\x03\xf0\xab\xb1\xbbP"],{},-169306],"b":{},"i":"FALSE"}',
    b'{"bi":4.5301415787623183e+170,"i":{"t":[-139,nul,"\xc2\x83"],"t3":{"s":-1072826578,"a":"\xf0\xbe\xad\xa6\xc2\x9c\xc2\xa1","bi":"7\xc2\xac\x02\x18\xf3\xa8\x97\xbb-"}},"si":[{"dec38":"q\x02\xc3\x9e]"},[{},["\xc2\xb6\xf3\x84\xba\x90\xc3\xa9","2020-02-29"],25136]],"s":{},"d":-2616486,"bi":1748835038,"bi":{},"si":{},"b":{},"dt":["",-5976718756876959.0,0.1]}',
    b'{"\xffb":{"x":144},"t3":{"ts":[],"i":-9223372036854775809,"ti":{"bi":[0]}}}',
    b'',
    b'',
    None,
]


def test_invalid_utf8_field_name_after_earlier_messages():
    assert_messages_match_flink(SCALARS, OPTIONS["ignore"], INVALID_UTF8_NAME_BATCH)
    assert INVALID_UTF8_NAME_BATCH[6] not in reproducible(SCALARS, OPTIONS["ignore"], INVALID_UTF8_NAME_BATCH)


HISTORY_TYPE = types.parse("ROW<`b` BOOLEAN, `ab` BOOLEAN, `abcde` BOOLEAN, `\u00e9\u00e9x` BOOLEAN>")


@pytest.mark.parametrize("name, twin", [
    (b"\xffb", b"b"), (b"\xff\xffab", b"ab"), (b"abcd\xffe", b"abcde"),
    (b"\\u00e9\\u00e9\xffx", "\u00e9\u00e9x".encode()),  # escapes count as their UTF-8 bytes
], ids=["one-group", "two-0xff", "second-group", "escapes"])
def test_field_names_flink_reads_by_history_are_refused(name, twin):
    """Flink's outcome for such a name depends on the messages before it, so ours fails loudly."""
    opts = OPTIONS["ignore"]
    message = b'{"' + name + b'":true}'
    alone = JsonDeserializer(HISTORY_TYPE.serializable(), opts).deserialize([message])
    after_twin = JsonDeserializer(HISTORY_TYPE.serializable(), opts).deserialize([b'{"' + twin + b'":false}', message])
    assert alone[0].rows == [None] and after_twin[1].rows[0] is not None
    with pytest.raises(FormatError) as caught:
        decode(pa.array([b'{"b":true}', message], pa.binary()), HISTORY_TYPE, parse_options(opts))
    assert caught.value.row == 1 and "earlier message" in caught.value.reason


def test_invalid_field_names_without_a_twin_decode_like_flink_whatever_came_before():
    seen = [b'{"b":true,"ab":true,"abcde":true}']
    names = [b"\xff", b"a\xffb", b"abcd\xff", b"\xff\x80b", b"ab\xff"]
    assert_messages_match_flink(HISTORY_TYPE, OPTIONS["ignore"], seen + [b'{"' + n + b'":true}' for n in names])


ESCAPES = types.parse("ROW<`a` ARRAY<VARCHAR(2147483647)>, `r` ROW<`s` VARCHAR(2147483647)>, "
                      "`s` VARCHAR(2147483647), `i` INT>")


@pytest.mark.parametrize("options", ["default", "ignore"])
def test_a_backslash_before_a_non_ascii_character(options):
    """Flink's parser reads the whole (or broken) UTF-8 character after the backslash before it
    refuses the escape, and json.ignore-parse-errors carries on from past it."""
    batch = [b'{"a":["\\\xc3\xa9","x"],"i":5}', b'{"a":["\\\xc3\xa9"],"i":5}', b'{"r":{"s":"\\\xc3\xa9"},"i":5}',
             b'{"s":"\\\xc3\xa9","i":5}', b'{"a":["\\\xe2\x82\xac","x"],"i":5}', b'{"a":["\\\xe2\x82"],"i":5}',
             b'{"a":["\\\xf0\x9f\x98\x80",1]   ,"i":5}', b'{"a":["\\\xc3\xa9,"x"],"i":5}', b'{"a":["\\\xc3("],"i":5}',
             b'{"a":["\\\xff","x"],"i":5}', b'{"r":{"\\\xc3\xa9":1},"i":5}', b'{"a":["\\\xc3']
    assert_messages_match_flink(ESCAPES, OPTIONS[options], batch)


BAD_TOKEN_TYPE = types.parse("ROW<`a` ARRAY<VARCHAR(2147483647)>, `m` MAP<VARCHAR(2147483647), INT>, `i` INT>")
#: Unrecognized tokens: non-ASCII bytes inside them (bad, overlong, surrogate and 4-byte forms), a
#: non-ASCII first byte, non-ASCII after a whole literal, and texts past the 256 chars the parser
#: reads of a bad token.
BAD_TOKENS = [b"nu\xecl", b"nul\x80", b"nu\xed\xa0\x80", b"nu\xc0\x80l", b"nu\xf0\x90\x80\x80\x00", b"nu\xf0\x9f\x98\x80",
              b"nu\xc3\xa9", b"nu" + b"u" * 300, b"nu" + b"u" * 254, b"nu" + b"\xc3\xa9" * 300, b"\xc3\xa9", b"\xc3abc",
              b"\xc3" + b"a" * 300, b"\xd7abc", b"\x85x", b"null\xc3\xa9", b"null\x80", b"null\xf8", b"null\xe2\x80\x94",
              b"true\xc3", b"NaN\xc3\xa9", b"truex", b"nu\xc3"]


@pytest.mark.parametrize("options", ["default", "ignore"])
def test_where_the_parser_stands_after_an_unrecognized_token(options):
    """Reading a bad token for its message, Flink's parser decodes UTF-8 its own way (a bad byte
    fails where it stands; after a whole literal it decodes the byte it looked at twice) and
    stops after 256 chars; json.ignore-parse-errors carries on from there inside arrays and maps."""
    batch = [shape.replace(b"%s", token) for token in BAD_TOKENS
             for shape in (b'{"a":["x",%s,"y"],"i":5}', b'{"m":{"k":%s,"j":2},"i":5}', b'{"m":{"k":%s}}')]
    assert_messages_match_flink(BAD_TOKEN_TYPE, OPTIONS[options], batch)


#: What may stand where a field name's opening quote belongs: ASCII, multi-byte characters (2, 3, 4
#: bytes, an encoded surrogate), bad UTF-8 (a stray continuation byte, a cut sequence, a bad middle byte).
NOT_A_NAME = [b"x", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\x80", b"\xc3", b"\xc3x",
              b"\xe2\x82x"]


@pytest.mark.parametrize("options", ["default", "ignore"])
def test_where_the_parser_stands_after_a_character_that_cannot_start_a_field_name(options):
    """To name a character that is not the quote a field name starts with, Flink's parser decodes it
    whole first, so it stands past all its bytes (or fails at a bad one); json.ignore-parse-errors
    carries on from there."""
    batch = [shape.replace(b"%s", found) for found in NOT_A_NAME
             for shape in (b'{"m":{%s},"i":5}', b'{"m":{"k":1,%s:2},"i":5}', b'{%s:1,"i":5}', b'{"a":[{%s}],"i":5}')]
    assert_messages_match_flink(BAD_TOKEN_TYPE, OPTIONS[options], batch)


# -- (d) BINARY (base64) and MAP (Java hash-map order) -----------------------------------------------

MAP_OPTIONS = {**OPTIONS, "map-null-key": {"json.map-null-key.mode": "LITERAL", "json.map-null-key.literal": "k0"}}


@pytest.mark.parametrize("options", ["default", "ignore"])
@SETTINGS
@given(batch=rows(BYTES_AND_MAPS, 5, 25))
def test_bytes_and_maps_round_trip(options, batch):
    opts = OPTIONS[options]
    assert_batch_matches_flink(BYTES_AND_MAPS, opts, flink_bytes(BYTES_AND_MAPS, opts, batch))


#: Key texts as they stand in the JSON: escapes, a lone surrogate (which Flink stores as "?", yet
#: keeps apart from a real "?"), non-ASCII, and numbered keys for maps big enough to resize.
_KEY_PIECES = ["a", "b", "?", "\\ud800", "\\udc00", "\\u00e9", "\u00e9", "\U0001f600", "\\ud83d\\ude00", "\\n",
               "\\\\", "\\/", "k", "\u0000"]
_KEYS = st.one_of(st.lists(st.sampled_from(_KEY_PIECES), max_size=3).map("".join),
                  st.integers(0, 99).map(lambda n: f"k{n}"))
_GOOD_MAP_VALUES = st.one_of(st.integers(-9, 9).map(str), st.just("null"))
_ODD_MAP_VALUES = st.sampled_from(['"2"', '"x"', "2147483648", "1.5", "{}", "[]", "[1]", '{"a":1}', "true", "[null]"])


def _json_map(entries: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f'"{k}":{v}' for k, v in entries) + "}"


@st.composite
def map_messages(draw):
    """A row whose MAP field has up to 60 entries (repeats included), in a ROW, an ARRAY or alone;
    one in four has odd values too."""
    values = st.one_of(_GOOD_MAP_VALUES, _ODD_MAP_VALUES) if draw(st.integers(0, 3)) == 0 else _GOOD_MAP_VALUES
    size = draw(st.integers(0, 60))
    entries = draw(st.lists(st.tuples(_KEYS, values), min_size=size, max_size=size))
    where = draw(st.sampled_from(["m", "am", "r", "after"]))
    text = _json_map(entries)
    if where == "am":
        body = '{"am":[' + text + "," + text + "]}"
    elif where == "r":
        body = '{"r":{"mm":{"k":' + text + "}}}"
    elif where == "after":
        body = '{"m":' + text + ',"i":' + draw(values) + "}"
    else:
        body = '{"m":' + text + "}"
    return body.encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("options", ["default", "ignore", "map-null-key"])
@ADVERSARIAL
@given(batch=st.lists(map_messages(), min_size=5, max_size=20))
def test_maps_take_flinks_hash_map_order(options, batch):
    """Entry order, repeated keys, odd values and keys; json.map-null-key.* only shapes encoding."""
    assert_messages_match_flink(MAPS, MAP_OPTIONS[options], batch)


#: Pieces of base64 content as it stands in the JSON string: the alphabet, padding, whitespace and
#: control bytes (raw and escaped), escapes of alphabet characters and of '=', characters outside
#: the alphabet (URL-safe ones among them), bad escapes, a quote and a backslash.
_BASE64_PIECES = ([bytes([c]) for c in b"AQgw+/09"] + [b"QUJD", b"QQ==", b"QUI=", b"QUJDRA"] * 3 + [
    b"=", b"==", b" ", b"\n", b"\t", b"\r", b"\x00", b"\x01", b"\x1f", b"\x7f", b"\\n", b"\\t", b"\\u0020",
    b"\\u0000", b"\\u003d", b"\\u0041", b"\\u0051", b"\\/", b"\\\\", b'\\"', b"\\x", b"\\u00", b"\\u12G4",
    b"\xc3\xa9", b"\\\xc3\xa9", b"\\\xc3", b"\\\xff", b"\xff", b"-", b"_", b".", b"\\u00e9", b"\\ud800"])


@st.composite
def base64_messages(draw):
    """A BINARY field's string, canonical or not, with a field after it to show where the parser
    carries on from after a failure."""
    if draw(st.booleans()):
        content = base64.b64encode(draw(st.binary(max_size=20)))
        if draw(st.booleans()):  # whitespace between 4-character groups is skipped
            groups = [content[i:i + 4] for i in range(0, len(content), 4)]
            separators = [b"", b" ", b"\n", b"\\n", b"\\r\\n", b"\\u000A", b"\\f", b"\\u0020", b"\\u003d", b"\\/"]
            content = b"".join(g + draw(st.sampled_from(separators)) for g in groups)
    else:
        content = b"".join(draw(st.lists(st.sampled_from(_BASE64_PIECES), max_size=12)))
    shape = draw(st.sampled_from([b'{"b":"%s","i":7}', b'{"a":["%s","QQ=="],"i":7}', b'{"b":"%s"}',
                                  b'{"i":7,"b":"%s', b'{"r":{"x":"%s","y":"QQ=="},"i":7}',
                                  b'{"m":{"k":"%s","j":"QQ=="},"i":7}']))
    return shape.replace(b"%s", content)


BYTES = types.parse("ROW<`b` VARBINARY(2147483647), `a` ARRAY<BINARY(3)>, "
                    "`r` ROW<`x` VARBINARY(2147483647), `y` VARBINARY(7)>, "
                    "`m` MAP<VARCHAR(2147483647), VARBINARY(2147483647)>, `i` INT>")


@pytest.mark.parametrize("options", ["default", "ignore"])
@ADVERSARIAL
@given(batch=st.lists(base64_messages(), min_size=10, max_size=30))
def test_base64_reads_like_flinks_parser(options, batch):
    assert_messages_match_flink(BYTES, OPTIONS[options], batch)


BASE64_EDGES = [
    b'{"b":"QUJD"}', b'{"b":""}', b'{"b":"QQ=="}', b'{"b":"QR=="}', b'{"b":"QUK="}', b'{"b":"QUI","i":1}',
    b'{"b":"QQ=","i":1}', b'{"b":"Q","i":1}', b'{"b":" QUJD\\n\\tQUJD\n"}', b'{"b":"QU JD","i":1}',
    b'{"b":"QQ==QUJD"}', b'{"b":"Q\\u003dQQ"}', b'{"b":"\\u003dQUJD"}', b'{"b":"QQ\\u003d\\u003d"}',
    b'{"b":"-_-_","i":1}', b'{"b":"QUJD!","i":1}', b'{"b":"\\xQUJD","i":1}', b'{"b":"\\\xc3\xa9","i":1}',
    b'{"b":"QUJD\xc3\xa9","i":1}', b'{"b":1,"i":1}', b'{"b":true,"i":1}', b'{"b":[1],"i":1}', b'{"b":{},"i":1}',
    b'{"b":null,"i":1}', b'{"a":["QUJDRA==","QQ=="]}', b'{"b":"QUJD', b'{"b":"QUJD\\',
    b'{"b":"\\r\\nQUJD\\r\\nQQ==\\r\\n","i":1}', b'{"b":"QUJD\x01\x1f\\u001FQUI=\\b\\f","i":1}',
    b'{"b":"QUJD\\r\\nQQ==\\r\\nQUJD","i":1}', b'{"b":"QU\\r\\nJD","i":1}', b'{"b":"QUJD\\u0021","i":1}',
]


@pytest.mark.parametrize("options", ["default", "ignore"])
def test_base64_edge_messages(options):
    """Padding required; whitespace only between groups; fixed-length BINARY(n) takes any length;
    after a bad character Flink's parser skips the rest of the string from just past it."""
    assert_messages_match_flink(BYTES, OPTIONS[options], BASE64_EDGES)


def test_a_lone_surrogate_key_and_a_question_mark_are_two_entries():
    message = b'{"m":{"\\ud800":1,"?":2,"\\ud800":3}}'
    assert_messages_match_flink(MAPS, {}, [message])
    (row,) = MessageDecoder(MAPS, parse_options({})).decode(message).rows
    assert row[0] == [("?", 3), ("?", 2)]


def _same_bucket_keys(count: int) -> list[str]:
    """Keys whose BinaryStringData hashes share the low 6 bits after HashMap's spread."""
    keys, n = [], 0
    while len(keys) < count:
        h = java_hash_map.binary_string_hash(f"k{n}")
        if (h ^ (h >> 16)) & 63 == 0:
            keys.append(f"k{n}")
        n += 1
    return keys


@pytest.mark.parametrize("message, fragment", [
    (b'{"m":{"a":[null],"b":1}}', "null map key"),  # a bad value's tokens read as a key
    (b'{"m":{' + ",".join(f'"{k}":1' for k in _same_bucket_keys(11)).encode() + b"}}", "tree"),
])
def test_maps_flink_holds_otherwise_fail_loudly(message, fragment):
    with pytest.raises(FormatError) as caught:
        decode(pa.array([message], pa.binary()), MAPS, parse_options(OPTIONS["ignore"]))
    assert "does not reproduce" in caught.value.reason and fragment in caught.value.reason


# -- (e) the native fast path: its edges against Flink, and the common messages all vouched ---------

#: Every type the native path takes, and nested ROWs of them two deep.
NATIVE = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, "
    "`dec` DECIMAL(10, 2), `dec38` DECIMAL(38, 18), `dec0` DECIMAL(3, 0), `c` CHAR(3), `s` VARCHAR(2147483647), "
    "`dt` DATE, `t` TIME(0), `ts` TIMESTAMP(3), `ts9` TIMESTAMP(9), `ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE, "
    "`r` ROW<`i` INT, `s` VARCHAR(2147483647), `ts` TIMESTAMP(6), `rr` ROW<`d` DOUBLE, `dec` DECIMAL(5, 3)>>>")
NATIVE_OPTIONS = {
    "default": {}, "ignore": OPTIONS["ignore"], "fail-missing": OPTIONS["fail-missing"],
    "ignore-iso": {**OPTIONS["ignore"], **OPTIONS["iso"]},
}


def assert_each_message_matches_flink(row_type: types.DataType, options: dict, batch: list[bytes | None]) -> None:
    """Each message alone through decode(): Flink's rows, or a failure where Flink fails."""
    batch = reproducible(row_type, options, batch)
    for message, want in zip(batch, flink(row_type, options).deserialize(batch)):
        values = pa.array([message], pa.binary())
        if want.error is not None:
            with pytest.raises(FormatError):
                decode(values, row_type, parse_options(options))
            continue
        result = decode(values, row_type, parse_options(options))
        assert same(from_batch(row_type, result.batch)) == same([r for r in want.rows if r is not None]), message


@pytest.mark.parametrize("options", list(NATIVE_OPTIONS))
@ADVERSARIAL
@given(batch=st.lists(native_messages(NATIVE), min_size=10, max_size=40))
def test_native_path_edge_messages(options, batch):
    """Messages at the native path's edges (escapes, surrogates, number and temporal limits,
    whitespace, unknown nested values, duplicate and escaped names, bytes around the object):
    each alone, and under json.ignore-parse-errors the batch as a whole (rows of both paths merged
    in order), decode as Flink decodes them."""
    opts = NATIVE_OPTIONS[options]
    assert_each_message_matches_flink(NATIVE, opts, batch)
    if opts.get("json.ignore-parse-errors") == "true":
        assert_batch_matches_flink(NATIVE, opts, reproducible(NATIVE, opts, batch))


#: Edge messages the native path takes itself (none left over), each with Flink's rows.
NATIVE_VOUCHED = [
    b'{"s":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0000\\u00e9\\ud83d\\ude00\\ud800\\udc00x\\uDBFF\\uDFFF",'
    b'"c":"\xc3\xa9\xf0\x9f\x98\x80\xe2\x80\xa8\x7f"}',
    b'{"s":"\\ud800\\ud800\\udc00","c":"\\ud83d\xf0\x9f\x98\x80\\ude00"}',
    b' \n\t{ "i" :\t1 ,\r\n"bi"  : -9223372036854775808 }  \n',
    b'{"i":1} trailing bytes Flink never reads: \xff\x00',
    b'{"unknown":{"a":[1,{"b":[[]]},"x\\"y\\ud800"],"c":{},"d":[true,false,null,-0.0,1E+2]},"i":2,"x":[[[[]]]]}',
    b'{"\\u0069":3,"\\u0073":"escaped names","r":{"\\u0072r":{"d":1.5}}}',
    b'{"b":true,"ti":-128,"si":32767,"i":-2147483648,"bi":9223372036854775807,"f":3.4028235e38,'
    b'"d":2.2250738585072014e-308,"dec":99999999.994,"dec38":-0.0000000000000000005,"dec0":"+999"}',
    b'{"ti":"+127","si":" -32768 ","i":"\\u0031\\u0032","bi":"-0009223372036854775808"}',
    b'{"f":1.00000005960464477539062499,"d":"  1e5 ","dec":"  -1.005 ","dec38":1e-18,"dec0":999.4999}',
    b'{"f":16777217,"d":9007199254740993,"dec":123456789.5,"dec0":-999.5,"dec38":"1.e1"}',
    b'{"f":-0.0,"d":0e10,"dec":0.005,"dec38":-0.0049999,"s":-0.0e+5,"c":true}',
    b'{"b":" TRUE ","s":false}', b'{"b":0}', b'{"b":"\\u0074rue"}', b'{"b":"yes"}',
    b'{"ts":"0000-01-01 00:00:00","ts9":"9999-12-31 23:59:59.999999999","ltz":"0000-01-01 00:00:00.1Z",'
    b'"dt":"0000-01-01","t":"23:59:59.999999999"}',
    b'{"dt":"2000-02-29","ts":"0000-02-29 12:00:00.5","ltz":"9999-12-31 23:59:59Z","t":"00:00:00"}',
    b'{"ts9":"1677-09-21 00:12:43.145224191","ltz":"2262-04-11 23:47:16.854775808Z"}',
    b'{"r":{"i":1,"s":"x","ts":"1970-01-01 00:00:00.000001","rr":null,"i":"read once all four were"}}',
    b'{"r":{"rr":{"dec":12.3456,"d":-1.5e-300},"s":null},"r2":{"i":1}}',
    b'{}', b'{"r":{}}', b'{"r":null,"s":null,"i":null}',
]
NATIVE_VOUCHED_ISO = [
    b'{"ts":"0000-01-01T00:00:00","ts9":"9999-12-31T23:59:59.999999999","ltz":"2020-02-29T12:34:56.789Z"}',
    b'{"r":{"ts":"2000-01-01T00:00:00.5"}}',
]


@pytest.mark.parametrize("options, batch", [({}, NATIVE_VOUCHED), (OPTIONS["iso"], NATIVE_VOUCHED_ISO)],
                         ids=["sql", "iso"])
def test_native_path_takes_edge_messages_as_flink_reads_them(options, batch):
    fast = json_fast_path.decode(pa.array(batch, pa.binary()), NATIVE, parse_options(options))
    assert fast is not None and fast.leftover is None, [batch[i] for i in fast.leftover.to_pylist()]
    assert_batch_matches_flink(NATIVE, options, batch)


def test_nexmark_bids_are_all_vouched_by_the_native_path():
    """The benchmark's flat bids never fall back to the slow exact path."""
    values = inputs.seed_messages(4096, "json", out=lambda *_: None)
    fast = json_fast_path.decode(values, inputs.BID_ROW, parse_options({}))
    assert fast is not None and fast.leftover is None and fast.batch.num_rows == len(values)
    assert_batch_matches_flink(inputs.BID_ROW, {}, values.to_pylist()[:1000])


@pytest.mark.parametrize("projection", [None, ["event_type", "bid"], ["bid"], ["auction", "event_type"], ["person"]],
                         ids=["all", "event-type-and-bid", "bid", "auction-and-event-type", "person"])
def test_nested_nexmark_events_are_all_vouched_by_the_native_path(projection):
    """The `nexmark` table's nested person/auction/bid events, read whole or projected (the
    unread objects skipped), never fall back to the slow exact path."""
    values = pa.concat_arrays(list(nexmark.messages(2000, "json")))
    fast = json_fast_path.decode(values, project(nexmark.ROW_TYPE, projection), parse_options({}))
    assert fast is not None and fast.leftover is None and fast.batch.num_rows == len(values)
    assert_batch_matches_flink(nexmark.ROW_TYPE, {}, values.to_pylist(), projection)


# -- (f) fields the stage never reads: checked like the rest, built as nulls -----------------------

def read_selections(row_type: types.DataType):
    """A `JsonOptions.read_fields` for `row_type`: each field left out, read whole, or (a ROW)
    read in part."""
    def field_choice(f: types.Field):
        whole = st.just((f.name, None))
        if f.type.root != "ROW":
            return st.one_of(st.none(), whole)
        return st.one_of(st.none(), whole, read_selections(f.type).map(lambda inner: (f.name, inner)))
    return st.tuples(*[field_choice(f) for f in row_type.fields]).map(
        lambda chosen: {name: inner for name, inner in (c for c in chosen if c is not None)})


def keep_read(array: pa.Array, t: types.DataType, read: dict | None) -> pa.Array:
    """`array` (decoded whole) with every field outside `read` nulled: what a decode of `read` gives."""
    if read is None:
        return array
    children = []
    for i, f in enumerate(t.fields):
        child = array.field(i)
        if f.name not in read:
            child = pa.nulls(len(array), child.type)
        elif f.type.root == "ROW":
            child = keep_read(child, f.type, read[f.name])
        children.append(child)
    return pa.StructArray.from_arrays(children, fields=list(array.type), mask=array.is_null())


@pytest.mark.parametrize("options", list(NATIVE_OPTIONS))
@settings(SETTINGS)
@given(batch=st.lists(native_messages(NATIVE), min_size=10, max_size=40), read=read_selections(NATIVE))
def test_unread_fields_are_checked_as_strictly_but_decoded_as_nulls(options, batch, read):
    """Reading only some fields vouches for exactly the messages a whole decode vouches for (a
    message Flink fails on fails whichever fields are read), with the same values in the read
    fields and nulls in the others."""
    values = pa.array(batch, pa.binary())
    whole = json_fast_path.decode(values, NATIVE, parse_options(NATIVE_OPTIONS[options]))
    part = json_fast_path.decode(values, NATIVE, replace(parse_options(NATIVE_OPTIONS[options]), read_fields=read))
    assert (whole is None) == (part is None)
    if whole is None:
        return
    assert part.vouched.equals(whole.vouched)
    assert (part.leftover is None and whole.leftover is None) or part.leftover.equals(whole.leftover)
    expected = keep_read(pa.StructArray.from_arrays(whole.batch.columns, fields=list(whole.batch.schema)), NATIVE, read)
    assert pa.StructArray.from_arrays(part.batch.columns, fields=list(part.batch.schema)).equals(expected)
    from_batch(NATIVE, part.batch)  # asserts the timestamp layout, 0 under the nulls of unread columns too


@pytest.mark.parametrize("message", [
    b'{"i":1,"ts":"2020-13-01 00:00:00"}', b'{"i":1,"bi":9223372036854775808}', b'{"i":1,"s":"\\x41"}',
    b'{"i":1,"r":{"ts":"not a timestamp"}}', b'{"i":1,"dt":"2021-02-29"}', b'{"i":1,"d":"abc"}',
], ids=["timestamp", "bigint-overflow", "bad-escape", "nested-timestamp", "feb-29", "text-for-double"])
def test_a_record_flink_fails_on_fails_even_where_the_field_is_not_read(message):
    options = parse_options({})
    want = flink(NATIVE, {}).deserialize([message])[0]
    assert want.error is not None, "the case must be one Flink's decoder fails on"
    with pytest.raises(FormatError):
        decode(pa.array([message], pa.binary()), NATIVE, replace(options, read_fields={"i": None}))


def test_an_unread_column_is_built_once_and_sliced_for_each_batch():
    """Columns the stage does not read are all nulls of their type whatever the messages hold, so
    batches share one array of them (sliced to each batch) instead of building one per batch: its
    nested ROWs and timestamps' zeroed parts cost as much as decoding a narrow plan's fields."""
    options = replace(parse_options({}), read_fields={"i": None})
    first = json_fast_path.decode(pa.array([b'{"i":1,"s":"x","r":{"i":2}}'] * 30, pa.binary()), NATIVE, options)
    second = json_fast_path.decode(pa.array([b'{"i":3}'] * 20, pa.binary()), NATIVE, options)
    assert second.batch.column("i").to_pylist() == [3] * 20
    for name in ("s", "ts", "r"):
        earlier, later = first.batch.column(name), second.batch.column(name)
        assert len(later) == 20 and later.null_count == 20
        assert [b.address for b in later.buffers() if b is not None] == \
               [b.address for b in earlier.buffers() if b is not None], f"column {name!r} was built again"
    from_batch(NATIVE, second.batch)  # the timestamp layout: zeroed parts under the nulls


def _children_as_stored(column: pa.Array) -> list:
    """A column's values and, for a struct, each field's stored values at any depth (Array.equals
    skips a struct's fields under its NULL rows; these do not)."""
    if not pa.types.is_struct(column.type):
        return [column]
    return [column.is_valid()] + [c for i in range(column.type.num_fields)
                                  for c in _children_as_stored(column.field(i))]


@pytest.mark.parametrize("read", [None, {"bid": {"inner": None}}, {"person": {"dateTime": None}, "event_type": None}])
def test_fast_path_rows_hold_null_fields_under_null_rows(read):
    """The decoder says its fast path's rows need no `with_parent_nulls` (a stage's plans then skip
    it): every field of a NULL ROW, read or not, must be NULL there already."""
    values = pa.array([
        b'{"event_type":2,"person":null,"bid":{"auction":7,"price":1.25,"flag":true,'
        b'"inner":{"t":"00:00:01","d":"2026-01-01"}}}',
        b'{"event_type":0,"person":{"id":1,"name":"x","dateTime":"2026-01-01 00:00:00"},"bid":null}',
        b'{"event_type":1,"person":null,"bid":{"auction":8,"price":null,"flag":false,"inner":null}}',
        b'{"event_type":1}',
    ], pa.binary())
    result = JsonDecoder(NESTED_ROWS, replace(parse_options({}), read_fields=read)).decode(values)
    assert result.nested_nulls and result.kept is None
    nulled = with_parent_nulls(result.batch)
    for column, expected in zip(result.batch.columns, nulled.columns):
        for stored, want in zip(_children_as_stored(column), _children_as_stored(expected)):
            assert stored.equals(want)
    # A message only the exact path reads (a float for an INT, which Flink reads as 1) makes no such promise.
    exact = JsonDecoder(NESTED_ROWS, parse_options({})).decode(pa.array([b'{"event_type":1.0}'], pa.binary()))
    assert exact.exact_path == 1 and not exact.nested_nulls
