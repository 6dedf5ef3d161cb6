"""Our avro decoder against Flink's AvroRowDataDeserializationSchema, message by message.

Flink's deserializer is one object per source: its buffered Avro decoder carries the bytes a
datum left unread into the next message. So every comparison feeds a whole sequence of messages
to one fresh Flink deserializer and to one fresh AvroDecoder.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import FormatError, avro, types
from accelerator.formats.avro_decoder import UNREPRODUCIBLE_REMEDY
from accelerator.formats.avro_values import DatumReader
from accelerator.formats import avro_fast_path
from accelerator.testing.flink_oracle import AvroDeserializer, AvroSerializer
from avro_types import LEGACY, MAPS, MODERN, NESTED, NEXMARK, SCALARS, TIMESTAMPS
from rows import rows
from values import from_batch, same

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])

_serializers: dict = {}


def flink_bytes(row_type: types.DataType, options: dict, batch: list[tuple]) -> list[bytes]:
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = AvroSerializer(row_type.serializable(), options)
    return _serializers[key].serialize(batch)


def decode_batches(row_type, options, batches: list[list[bytes | None]]):
    """Our rows and their message indices over consecutive batches of one decoder."""
    decoder = avro.AvroDecoder(row_type, avro.parse_options(options))
    rows_, kept, base = [], [], 0
    for batch in batches:
        try:
            result = decoder.decode(pa.array(batch, pa.binary()))
        except FormatError as e:  # the row within the batch -> within all messages
            raise FormatError(base + e.row, e.reason, e.remedy) from None
        rows_.extend(from_batch(row_type, result.batch))
        kept.extend(base + i for i in (range(len(batch)) if result.kept is None else result.kept.to_pylist()))
        base += len(batch)
    return rows_, kept


def assert_decodes_like_flink(row_type: types.DataType, options: dict, messages: list[bytes | None],
                              cuts: tuple[int, ...] = ()) -> str:
    """Flink's rows, in order, or a FormatError at the first message Flink fails on. Where the
    accelerator says it does not reproduce a record, every row before it must still match.
    Returns which of the three happened."""
    expected = AvroDeserializer(row_type.serializable(), options).deserialize(messages)
    failing = next((i for i, d in enumerate(expected) if d.error is not None), None)
    bounds = [0, *sorted(c for c in cuts if 0 < c < len(messages)), len(messages)]
    batches = [messages[a:b] for a, b in zip(bounds, bounds[1:])]
    try:
        got, kept = decode_batches(row_type, options, batches)
    except FormatError as e:
        if e.remedy == UNREPRODUCIBLE_REMEDY:
            assert failing is None or e.row <= failing, (e, failing, expected[failing].error)
            before = messages[:e.row]
            want = [r for d in expected[:e.row] for r in d.rows if r is not None]
            got_before, _ = decode_batches(row_type, options, [before])
            assert same(got_before) == same(want)
            return "unreproducible"
        assert failing is not None, (e, expected[e.row].rows)
        assert e.row == failing, (e, expected[failing].error)
        assert "Failed to deserialize Avro record" in e.reason
        return "failed"
    assert failing is None, (failing, expected[failing].error)
    assert same(got) == same([r for d in expected for r in d.rows if r is not None])
    assert kept == [i for i, d in enumerate(expected) for r in d.rows if r is not None]
    return "rows"


# -- (a) Flink's own bytes come back as Flink's rows -----------------------------------------------

@pytest.mark.parametrize("options", [LEGACY, MODERN], ids=["legacy", "modern"])
@SETTINGS
@given(batch=rows(SCALARS, 5, 25))
def test_scalar_rows_round_trip(options, batch):
    assert assert_decodes_like_flink(SCALARS, options, flink_bytes(SCALARS, options, batch)) == "rows"


@SETTINGS
@given(batch=rows(TIMESTAMPS, 5, 25))
def test_timestamps_are_read_as_milliseconds_like_flink(batch):
    assert assert_decodes_like_flink(TIMESTAMPS, MODERN, flink_bytes(TIMESTAMPS, MODERN, batch)) == "rows"


@SETTINGS
@given(batch=rows(NESTED, 3, 15))
def test_nested_rows_round_trip(batch):
    assert assert_decodes_like_flink(NESTED, LEGACY, flink_bytes(NESTED, LEGACY, batch)) == "rows"


@SETTINGS
@given(batch=rows(MAPS, 3, 15))
def test_maps_come_in_the_order_flinks_hash_maps_give_them(batch):
    assert assert_decodes_like_flink(MAPS, LEGACY, flink_bytes(MAPS, LEGACY, batch)) == "rows"


def test_repeated_and_colliding_map_keys_merge_like_flinks():
    row_type = types.parse("ROW<`m` MAP<VARCHAR(2147483647), INT>>")
    key = {k: bytes([2 * len(k)]) + k for k in (b"Aa", b"BB", b"x", b"\xed\xa0\x80", b"\xed\xbf\xbf")}
    # two blocks (the second with its byte size), "Aa"/"BB" collide, "x" repeats, two bad keys
    # that both read as U+FFFD
    def value(v: int) -> bytes:
        return b"\x02" + bytes([2 * v])

    body = (b"\x08" + key[b"Aa"] + value(1) + key[b"x"] + value(2) + key[b"BB"] + value(3) + key[b"x"] + value(4)
            + b"\x03\x0c" + key[b"\xed\xa0\x80"] + value(5) + key[b"\xed\xbf\xbf"] + value(6) + b"\x00")
    assert assert_decodes_like_flink(row_type, {}, [b"\x02" + body, b"\x02\x00", b"\x00"]) == "rows"


def test_timestamps_of_any_long_are_read_exactly_on_both_paths():
    # Flink reads any long of epoch milliseconds (TimestampData.fromEpochMillis), years far
    # outside 0000-9999 included.
    row_type = types.parse("ROW<`ts` TIMESTAMP(3), `n` TIMESTAMP(3) NOT NULL>")
    millis = [-(2 ** 63), 2 ** 63 - 1, -62_167_219_200_001, 253_402_300_800_000, -1, 0]
    batch = [(m * 1_000_000, -m * 1_000_000 if m > -(2 ** 63) else 0) for m in millis] + [(None, 1_000_000)]
    messages = flink_bytes(row_type, LEGACY, batch)
    assert assert_decodes_like_flink(row_type, LEGACY, messages) == "rows"
    schema = avro.derive(row_type)
    _, regular = avro_fast_path.decode(pa.array(messages, pa.binary()), schema)
    assert regular.all()
    expected = [d.rows[0] for d in AvroDeserializer(row_type.serializable(), LEGACY).deserialize(messages)]
    assert [DatumReader(m).read(schema) for m in messages] == expected == batch


def test_well_formed_rows_take_the_native_path_alone():
    batch = [(1, 2, 3, "c", "u", 1_000_000, "e")] * 5
    _, regular = avro_fast_path.decode(pa.array(flink_bytes(NEXMARK, {}, batch), pa.binary()), avro.derive(NEXMARK))
    assert regular.all()


# -- (b) damaged datums ----------------------------------------------------------------------------

def _damage(message: bytes, how: int, rnd: random.Random) -> bytes:
    if how == 0 and message:                       # truncated
        return message[:rnd.randrange(len(message))]
    if how == 1:                                   # trailing bytes: read as the next datum's start
        return message + bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 4)))
    if how == 2 and message:                       # one byte changed (union index, length, varint)
        i = rnd.randrange(len(message))
        return message[:i] + bytes([rnd.choice([0x01, 0x03, 0x04, 0x7F, 0x80, 0xFF, rnd.randrange(256)])]) + message[i + 1:]
    if how == 3:                                   # garbage
        return bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 12)))
    if how == 4 and message:                       # a byte dropped
        i = rnd.randrange(len(message))
        return message[:i] + message[i + 1:]
    return message


@pytest.mark.parametrize("row_type", [SCALARS, NESTED, MAPS, NEXMARK], ids=["scalars", "nested", "maps", "nexmark"])
@SETTINGS
@given(batch=st.data())
def test_damaged_messages_fail_where_flink_fails(row_type, batch):
    good = flink_bytes(row_type, LEGACY, batch.draw(rows(row_type, 4, 12)))
    rnd = random.Random(batch.draw(st.integers(0, 2 ** 32)))
    messages = [_damage(m, rnd.randrange(7), rnd) if rnd.random() < 0.3 else m for m in good]
    messages = [None if rnd.random() < 0.05 else m for m in messages]
    cuts = tuple(rnd.randrange(len(messages) + 1) for _ in range(2))
    assert_decodes_like_flink(row_type, LEGACY, messages, cuts)


EDGES = [
    b"", b"\x00", b"\x02", b"\x04", b"\x01", b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
    b"\x02\x01" + b"\xff" * 10, b"\x02\x80\x80\x80\x80\x10",
]


@pytest.mark.parametrize("message", EDGES)
def test_edge_messages_alone(message):
    assert assert_decodes_like_flink(NEXMARK, LEGACY, [message]) in ("failed", "rows")


def test_bytes_left_unread_start_the_next_message_even_across_batches():
    good = flink_bytes(NEXMARK, {}, [(1, 2, 3, "c", "u", 1_000_000, "e"), (4, 5, 6, None, None, None, None)])
    # the first message carries the first byte of the second one; the second lacks it
    messages = [good[0] + good[1][:1], good[1][1:], None, good[0]]
    assert assert_decodes_like_flink(NEXMARK, {}, messages) == "rows"
    assert assert_decodes_like_flink(NEXMARK, {}, messages, cuts=(1,)) == "rows"


def test_string_and_bytes_lengths_are_longs_held_to_javas_array_limit():
    """BinaryDecoder reads a length as a long (up to 10 bytes, no bits dropped at 32), then
    SystemLimitException refuses one beyond 2147483639."""
    row_type = types.parse("ROW<`s` VARCHAR(2147483647) NOT NULL, `b` VARBINARY(2147483647) NOT NULL>")
    six_byte_three = b"\x86\x80\x80\x80\x80\x00"  # 3, written at length
    beyond_32_bits = b"\x86\x80\x80\x80\x20"       # 2**32 + 3 as a long, 3 as an int
    assert assert_decodes_like_flink(row_type, {}, [six_byte_three + b"abc" + six_byte_three + b"xyz"]) == "rows"
    assert assert_decodes_like_flink(row_type, {}, [beyond_32_bits + b"abc\x00"]) == "failed"
    assert assert_decodes_like_flink(row_type, {}, [b"\x00" + beyond_32_bits + b"abc"]) == "failed"


def test_booleans_other_than_one_are_false_and_small_ints_wrap():
    row_type = types.parse("ROW<`b` BOOLEAN NOT NULL, `t` TINYINT NOT NULL, `s` SMALLINT NOT NULL>")
    messages = [b"\x02\xd8\x04\x80\x80\x04", b"\x01\x80\x02\xfe\xff\x03", b"\xff\x00\x00"]
    assert assert_decodes_like_flink(row_type, {}, messages) == "rows"
    got, _ = decode_batches(row_type, {}, [messages])
    assert got[0] == (False, 44, -32768) and got[1] == (True, -128, 32767)


def test_decimals_longer_than_their_precision_read_as_null():
    row_type = types.parse("ROW<`d` DECIMAL(3, 1), `w` DECIMAL(30, 2)>")
    big = (10 ** 30).to_bytes(13, "big", signed=True)
    messages = [b"\x02\x04\x03\xe8\x02\x1a" + big, b"\x02\x02\x00\x02\x22" + b"\x00" * 16 + b"\x01",
                b"\x02\x00"]
    assert assert_decodes_like_flink(row_type, {}, messages) == "failed"   # empty bytes: Java fails
    assert assert_decodes_like_flink(row_type, {}, messages[:2]) == "rows"
    got, _ = decode_batches(row_type, {}, [messages[:2]])
    assert got == [(None, None), (Decimal("0.0"), Decimal("0.01"))]
    huge = b"\x01" + b"\x00" * 2999  # 7,200 digits: still just "too many digits" for Flink
    message = b"\x02\x02\x00\x02" + bytes([0xF0, 0x2E]) + huge
    assert assert_decodes_like_flink(row_type, {}, [message]) == "rows"


def test_invalid_utf8_is_repaired_as_java_repairs_it():
    row_type = types.parse("ROW<`s` VARCHAR(2147483647), `t` VARCHAR(2147483647) NOT NULL>")
    messages = [b"\x02\x02a\x00", b"\x02\x06\xed\xa0\x80\x06\xf0\x90\x80", b"\x02\x04\xc3(\x02\xff"]
    assert assert_decodes_like_flink(row_type, {}, messages) == "rows"
    got, _ = decode_batches(row_type, {}, [messages])
    assert got[1] == ("\ufffd", "\ufffd") and got[2] == ("\ufffd(", "\ufffd")


def test_a_bad_record_names_its_message_and_the_remedy():
    good = flink_bytes(NEXMARK, {}, [(1, 2, 3, "c", "u", 1_000_000, "e")])[0]
    with pytest.raises(FormatError) as caught:
        decode_batches(NEXMARK, {}, [[good, good[:5], good]])
    assert caught.value.row == 1 and "avro-confluent" in caught.value.remedy


def test_the_exact_path_keeps_every_digit_of_a_decimal_38():
    row_type = types.parse("ROW<`d` DECIMAL(38, 18) NOT NULL>")
    values_ = [Decimal("-99999999999999999999.999999999999999999"), Decimal("12345678901234567890.123456789012345678")]
    first, second = flink_bytes(row_type, {}, [(v,) for v in values_])
    # a byte carried over sends both messages through the exact reader
    assert assert_decodes_like_flink(row_type, {}, [first + second[:1], second[1:]]) == "rows"
    got, _ = decode_batches(row_type, {}, [[first + second[:1], second[1:]]])
    assert got == [(v,) for v in values_]


def test_the_native_path_reads_odd_but_valid_datums_like_flink():
    """Blocks with a byte size (negative count), several blocks, decimals with redundant sign
    bytes and booleans other than 0/1 are all read natively, without the exact reader."""
    row_type = types.parse("ROW<`a` ARRAY<INT NOT NULL> NOT NULL, `d` DECIMAL(10, 2) NOT NULL, `b` BOOLEAN NOT NULL>")
    messages = [
        b"\x03\x04\x02\x04" + b"\x02\x06" + b"\x00" + b"\x06\x00\x00\x01" + b"\x07",  # [1, 2] + [3]; 0.01; false
        b"\x00" + b"\x08\xff\xff\xff\x85" + b"\x01",                                     # []; -1.23; true
    ]
    _, regular = avro_fast_path.decode(pa.array(messages, pa.binary()), avro.derive(row_type))
    assert regular.all()
    assert assert_decodes_like_flink(row_type, {}, messages) == "rows"
    got, _ = decode_batches(row_type, {}, [messages])
    assert got == [([1, 2, 3], Decimal("0.01"), False), ([], Decimal("-1.23"), True)]


def test_sliced_and_large_binary_batches_decode_like_whole_ones():
    messages = flink_bytes(NEXMARK, {}, [(i, i, i, f"c{i}", None, i * 1_000_000, "x" * i) for i in range(40)])
    whole = avro.AvroDecoder(NEXMARK, avro.parse_options({})).decode(pa.array(messages, pa.binary())).batch
    sliced = avro.AvroDecoder(NEXMARK, avro.parse_options({})).decode(pa.array(messages, pa.binary()).slice(7, 20))
    large = avro.AvroDecoder(NEXMARK, avro.parse_options({})).decode(pa.array(messages, pa.large_binary()))
    assert sliced.batch.equals(whole.slice(7, 20)) and large.batch.equals(whole)


#: Flink's avro decoder takes TIMESTAMP WITH LOCAL TIME ZONE only at the top level (in a nested
#: row it fails to start; avro.supported refuses that when decoding).
LTZ = types.parse("ROW<`l0` TIMESTAMP(0) WITH LOCAL TIME ZONE, `r` ROW<`i` INT, `t` TIMESTAMP(6)>, "
                  "`l6` TIMESTAMP(6) WITH LOCAL TIME ZONE, `l3` TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL>")


@SETTINGS
@given(batch=rows(LTZ, 3, 20))
def test_local_time_zone_timestamps_decode_like_flink(batch):
    """Years 0000-9999 with sub-millisecond digits, which Flink's avro drops (it holds millis)."""
    assert avro.supported(LTZ, MODERN, "decode") is None
    assert assert_decodes_like_flink(LTZ, MODERN, flink_bytes(LTZ, MODERN, batch)) == "rows"


def test_a_local_time_zone_timestamp_in_a_nested_row_is_not_decoded_as_flink_cannot():
    row_type = types.parse("ROW<`r` ROW<`l` TIMESTAMP(3) WITH LOCAL TIME ZONE>>")
    with pytest.raises(Exception, match="Unsupported type: TIMESTAMP_LTZ"):
        AvroDeserializer(row_type.serializable(), MODERN)
    assert "r.l" in avro.supported(row_type, MODERN, "decode")
    assert avro.supported(row_type, MODERN, "encode") is None


def _zigzag_long(value: int) -> bytes:
    """One Avro long (zig-zag varint), the whole datum of a one-column NOT NULL row."""
    n = (value << 1) ^ (value >> 63)
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def test_local_time_zone_timestamps_of_any_long_decode_like_flink():
    longs = [-(2 ** 63), 2 ** 63 - 1, -1, 0, 1, -62_135_596_800_000, 253_402_300_799_999, 951_782_400_000]
    row_type = types.parse("ROW<`l` TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL>")
    messages = [_zigzag_long(v) for v in longs]
    assert assert_decodes_like_flink(row_type, MODERN, messages) == "rows"
