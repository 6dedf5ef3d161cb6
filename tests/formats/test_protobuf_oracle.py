"""Our protobuf encoder and decoder against flink-protobuf 2.2.0's own serialization schemas.

The test .proto files (tests/formats/protos) are compiled at test time with protoc and javac
(accelerator.testing.protobuf_oracle); Flink's PbFormatFactory then runs on the generated
classes while our side gets protoc's FileDescriptorSet, as the shim would hand it over.
"""

from __future__ import annotations

import base64
import math
import struct
from pathlib import Path

import pyarrow as pa
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FieldDescriptor as F
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import FormatError, protobuf, types
from accelerator.formats.protobuf_wire import non_canonical
from accelerator.testing import protobuf_oracle
from values import to_batch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PROTOS = Path(__file__).parent / "protos"
S = "VARCHAR(2147483647)"
B = "VARBINARY(2147483647)"
INNER3 = f"ROW<`a` INT, `b` {S}, `c` {S}>"
KITCHEN3 = (
    f"ROW<`f_double` DOUBLE, `f_float` FLOAT, `f_int` INT, `f_long` BIGINT, `f_uint` INT, `f_ulong` BIGINT,"
    f" `f_sint` INT, `f_slong` BIGINT, `f_fixed` INT, `f_fixed_long` BIGINT, `f_sfixed` INT,"
    f" `f_sfixed_long` BIGINT, `f_bool` BOOLEAN, `f_string` {S}, `f_bytes` {B}, `f_enum` {S},"
    f" `f_inner` ROW<`a` INT, `b` {S}, `c` INT>, `r_int` ARRAY<INT>, `r_string` ARRAY<{S}>,"
    f" `r_inner` ARRAY<{INNER3}>, `r_enum` ARRAY<INT>, `r_double` ARRAY<DOUBLE>, `m_string` MAP<{S}, INT>,"
    f" `m_int` MAP<INT, {S}>, `m_long` MAP<BIGINT, {INNER3}>, `m_bool` MAP<BOOLEAN, {B}>, `o_string` {S},"
    f" `o_long` BIGINT, `o_inner` ROW<`a` INT, `c` INT>, `p_int` INT,"
    f" `f_ts` ROW<`seconds` BIGINT, `nanos` INT>, `r_bool` ARRAY<BOOLEAN>, `r_bytes` ARRAY<{B}>>")
KITCHEN2 = (
    f"ROW<`f_double` DOUBLE, `f_float` FLOAT, `f_int` INT, `f_long` BIGINT, `f_uint` INT, `f_ulong` BIGINT,"
    f" `f_sint` INT, `f_slong` BIGINT, `f_fixed` INT, `f_fixed_long` BIGINT, `f_sfixed` INT,"
    f" `f_sfixed_long` BIGINT, `f_bool` BOOLEAN, `f_string` {S}, `f_bytes` {B}, `f_enum` {S},"
    f" `f_inner` ROW<`a` INT, `b` {S}>, `r_int` ARRAY<INT>, `r_string` ARRAY<{S}>,"
    f" `r_inner` ARRAY<ROW<`b` {S}>>, `r_enum` ARRAY<INT>, `r_packed` ARRAY<BIGINT>,"
    f" `m_string` MAP<{S}, {S}>, `o_string` {S}, `o_long` BIGINT>")
CLASSES = {"acc.kitchen3.All": "acc.kitchen3.Kitchen3Proto$All", "acc.kitchen2.All": "acc.kitchen2.Kitchen2Proto$All"}

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])

@pytest.fixture(scope="module")
def compiled():
    return protobuf_oracle.compile_protos(PROTOS, ["kitchen3.proto", "kitchen2.proto"])


_pool_cache: dict = {}


def _pool(compiled):
    if "pool" not in _pool_cache:
        pool = descriptor_pool.DescriptorPool()
        for f in descriptor_pb2.FileDescriptorSet.FromString(compiled.descriptor_set).file:
            pool.Add(f)
        _pool_cache["pool"] = pool
    return _pool_cache["pool"]


def flink_options(message: str, **extra) -> dict[str, str]:
    return {"protobuf.message-class-name": CLASSES[message], **{f"protobuf.{k}": v for k, v in extra.items()}}


def our_options(compiled, message: str, **extra) -> dict[str, str]:
    return {**flink_options(message, **extra),
            protobuf.DESCRIPTOR_SET: base64.b64encode(compiled.descriptor_set).decode(),
            protobuf.MESSAGE_NAME: message}


# -- values for a row type over a message -------------------------------------------------------

_INT32 = st.one_of(st.sampled_from([0, 1, -1, 2 ** 31 - 1, -2 ** 31, 127, 128, -129]),
                   st.integers(-2 ** 31, 2 ** 31 - 1))
_INT64 = st.one_of(st.sampled_from([0, 1, -1, 2 ** 63 - 1, -2 ** 63, 2 ** 32, -2 ** 35]),
                   st.integers(-2 ** 63, 2 ** 63 - 1))
_FLOAT = st.one_of(st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, 1.5]), st.floats(width=32))
_DOUBLE = st.one_of(st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan]), st.floats())
_TEXT = st.one_of(st.sampled_from(["", "a", "é", "日本", "😀"]), st.text(max_size=8))


def _scalar(fd, t: types.DataType):
    if fd.type == F.TYPE_ENUM:
        if t.root == "INT":
            return st.one_of(st.sampled_from([v.number for v in fd.enum_type.values]), _INT32)
        return st.one_of(st.sampled_from([v.name for v in fd.enum_type.values] + ["UNRECOGNIZED", "nope"]), _TEXT)
    return {"BOOLEAN": st.booleans(), "INT": _INT32, "BIGINT": _INT64, "FLOAT": _FLOAT, "DOUBLE": _DOUBLE,
            "VARCHAR": _TEXT, "VARBINARY": st.binary(max_size=8)}[t.root]


def _value(fd, t: types.DataType, element: bool = False):
    if t.root == "MAP":
        key_fd, value_fd = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        keys = st.one_of(st.sampled_from([0, 1, 16, 17, 33]), _INT32) if t.children[0].root == "INT" else \
            _scalar(key_fd, t.children[0])
        return st.lists(st.tuples(keys, st.one_of(st.none(), _single(value_fd, t.children[1]))), max_size=5)
    if fd.is_repeated and not element:
        return st.lists(st.one_of(st.none(), _single(fd, t.children[0])), max_size=5)
    return _single(fd, t)


def _single(fd, t: types.DataType):
    if t.root == "ROW":
        return _row(fd.message_type, t)
    return _scalar(fd, t)


def _row(message, t: types.DataType):
    return st.tuples(*[st.one_of(st.none(), _value(message.fields_by_name[f.name], f.type)) for f in t.fields])


def row_strategy(compiled, message: str, row_type: str):
    t = types.parse(row_type)
    return _row(_pool(compiled).FindMessageTypeByName(message), t)


# -- comparing -----------------------------------------------------------------------------------

def canonical(v):
    """Values compare by their bits (-0.0 is not 0.0), every NaN alike."""
    if isinstance(v, float):
        return "NaN" if math.isnan(v) else struct.pack("<d", v)
    if isinstance(v, (list, tuple)):
        return type(v)(canonical(x) for x in v)
    return v


def our_rows(row_type: types.DataType, batch: pa.RecordBatch) -> list[tuple]:
    names = [f.name for f in row_type.fields]
    return [_tuple(row_type, {n: r[n] for n in names}) for r in batch.to_pylist()]


def _tuple(t: types.DataType, v):
    if v is None:
        return None
    if t.root == "ROW":
        return tuple(_tuple(f.type, v[f.name]) for f in t.fields)
    if t.root == "ARRAY":
        return [_tuple(t.children[0], x) for x in v]
    if t.root == "MAP":
        return [(k, _tuple(t.children[1], x)) for k, x in v]
    return v


_serializers: dict = {}
_deserializers: dict = {}


def flink_encode(compiled, message, row_type, options, rows):
    key = (message, row_type, tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = protobuf_oracle.ProtobufSerializer(compiled, row_type, options)
    return _serializers[key].serialize(rows)


def flink_decode(compiled, message, row_type, options, messages):
    key = (message, row_type, tuple(sorted(options.items())))
    if key not in _deserializers:
        _deserializers[key] = protobuf_oracle.ProtobufDeserializer(compiled, row_type, options)
    return _deserializers[key].deserialize(messages)


def assert_same_bytes(compiled, message, row_type, rows, **extra):
    t = types.parse(row_type)
    expected = flink_encode(compiled, message, row_type, flink_options(message, **extra), rows)
    ours = protobuf.encode(to_batch(t, rows), t, protobuf.parse_options(our_options(compiled, message, **extra)))
    for i, (e, a) in enumerate(zip(expected, ours.to_pylist())):
        assert isinstance(e, bytes), f"Flink failed on row {i} {rows[i]!r}: {e}"
        assert a == e, f"row {i}: {rows[i]!r}"


def assert_same_rows(compiled, message, row_type, messages, **extra):
    """Each message decoded alone by both sides: the same row, or both fail."""
    t = types.parse(row_type)
    expected = flink_decode(compiled, message, row_type, flink_options(message, **extra), messages)
    decoder = protobuf.ProtobufDecoder(t, protobuf.parse_options(our_options(compiled, message, **extra)))
    ignore = extra.get("ignore-parse-errors") == "true"
    for i, (m, e) in enumerate(zip(messages, expected)):
        if e.error is not None:
            if ignore:
                pytest.fail(f"message {i} {m!r}: Flink failed despite ignore-parse-errors: {e.error}")
            with pytest.raises(FormatError) as error:
                decoder.decode(pa.array([m], pa.binary()))
            assert "protobuf.ignore-parse-errors" in str(error.value) or "may read differently" in str(error.value)
            continue
        try:
            result = decoder.decode(pa.array([m], pa.binary()))
        except FormatError as error:
            if "may read differently" in error.reason:  # refused, never guessed (protobuf_wire)
                continue
            pytest.fail(f"message {i} {m!r}: Flink reads {e.rows}, we fail: {error}")
        ours = our_rows(t, result.batch)
        assert canonical(ours) == canonical(e.rows), f"message {i}: {m!r}\nFlink: {e.rows}\nours:  {ours}"


def assert_batch_matches(compiled, message, row_type, messages, **extra):
    """The whole list decoded as one batch: Flink's rows, in order, with the skipped ones left out."""
    t = types.parse(row_type)
    expected = flink_decode(compiled, message, row_type, flink_options(message, **extra), messages)
    result = protobuf.ProtobufDecoder(t, protobuf.parse_options(our_options(compiled, message, **extra))).decode(
        pa.array(messages, pa.binary()))
    want = [r for e in expected for r in (e.rows or [])]
    assert canonical(our_rows(t, result.batch)) == canonical(want)
    kept = list(range(len(messages))) if result.kept is None else result.kept.to_pylist()
    assert kept == [i for i, e in enumerate(expected) if e.rows]


# -- encoder -------------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data())
def test_proto3_rows_encode_as_flink_writes_them(compiled, data):
    rows = data.draw(st.lists(row_strategy(compiled, "acc.kitchen3.All", KITCHEN3), min_size=20, max_size=60))
    assert_same_bytes(compiled, "acc.kitchen3.All", KITCHEN3, rows)


@SETTINGS
@given(data=st.data())
def test_proto2_rows_encode_as_flink_writes_them(compiled, data):
    rows = data.draw(st.lists(row_strategy(compiled, "acc.kitchen2.All", KITCHEN2), min_size=20, max_size=60))
    assert_same_bytes(compiled, "acc.kitchen2.All", KITCHEN2, rows, **{"write-null-string-literal": "NULL!"})


def test_edge_rows_encode_as_flink_writes_them(compiled):
    t = types.parse(KITCHEN3)
    width = len(t.fields)
    edge = [
        (None,) * width,
        (0.0, 0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, "", b"", "RED") + (None,) * (width - 16),
        (-0.0, -0.0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, True, "é", b"\x00", "NEGATIVE") + (None,) * (width - 16),
        (math.nan, math.inf, 2 ** 31 - 1, 2 ** 63 - 1, -2 ** 31, -2 ** 63, -2 ** 31, -2 ** 63, -2 ** 31, -2 ** 63,
         -2 ** 31, -2 ** 63, True, "x" * 200, b"\xff" * 200, "nope") + (None,) * (width - 16),
    ]
    assert_same_bytes(compiled, "acc.kitchen3.All", KITCHEN3, edge)


# -- decoder -------------------------------------------------------------------------------------

def _mutations(base: list[bytes]):
    """Flink-written messages, then the shapes a producer can send that Flink's writer never makes:
    concatenations (later fields win, repeated and map entries add up), unknown fields, unpacked
    repeated numbers, truncations and noise."""
    unknown = st.sampled_from([b"\xa0\x06\x01", b"\xaa\x06\x03abc", b"\xad\x06\x00\x00\x80\x7f",
                               b"\xa9\x06" + b"\x01" * 8, b"\xa3\x06\xa4\x06"])
    pick = st.sampled_from(base) if base else st.just(b"")
    return st.one_of(
        pick,
        st.tuples(pick, pick).map(lambda p: p[0] + p[1]),
        st.tuples(pick, unknown).map(lambda p: p[0] + p[1]),
        st.tuples(pick, st.integers(0, 40)).map(lambda p: p[0][:p[1]]),
        st.binary(max_size=12),
        st.sampled_from([b"\x80\x01\x05", b"\x80\x01\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # open enum numbers
                         b"\x90\x01\x01\x90\x01\x02", b"\xa8\x01\x07",  # unpacked repeated, undeclared enum
                         b"\xc2\x01\x04\x08\x01\x12\x00\xc2\x01\x04\x08\x01\x12\x01z",  # repeated map key
                         b"\xd8\x01\x05\xe2\x01\x00", b"\x72\x02\xff\x41", b"\x0a\x00",
                         b"\x8a\x01\x82\x80\x80\x80\x00\x08\x01",  # padded 5-byte length
                         b"\x98\x80\x80\x80\x00\x05"]),  # padded 5-byte tag
    )


@SETTINGS
@given(data=st.data())
def test_proto3_messages_decode_as_flink_reads_them(compiled, data):
    rows = data.draw(st.lists(row_strategy(compiled, "acc.kitchen3.All", KITCHEN3), min_size=5, max_size=15))
    base = flink_encode(compiled, "acc.kitchen3.All", KITCHEN3, flink_options("acc.kitchen3.All"), rows)
    messages = data.draw(st.lists(_mutations(base), min_size=20, max_size=60))
    assert_same_rows(compiled, "acc.kitchen3.All", KITCHEN3, messages)


@pytest.mark.parametrize("read_defaults", ["false", "true"])
@SETTINGS
@given(data=st.data())
def test_proto2_messages_decode_as_flink_reads_them(compiled, read_defaults, data):
    rows = data.draw(st.lists(row_strategy(compiled, "acc.kitchen2.All", KITCHEN2), min_size=5, max_size=15))
    base = flink_encode(compiled, "acc.kitchen2.All", KITCHEN2, flink_options("acc.kitchen2.All"), rows)
    messages = data.draw(st.lists(_mutations(base), min_size=20, max_size=60))
    assert_same_rows(compiled, "acc.kitchen2.All", KITCHEN2, messages, **{"read-default-values": read_defaults})


@SETTINGS
@given(data=st.data())
def test_bad_messages_are_skipped_with_ignore_parse_errors(compiled, data):
    rows = data.draw(st.lists(row_strategy(compiled, "acc.kitchen3.All", KITCHEN3), min_size=3, max_size=8))
    base = flink_encode(compiled, "acc.kitchen3.All", KITCHEN3, flink_options("acc.kitchen3.All"), rows)
    reading = protobuf.ProtobufDecoder(types.parse(KITCHEN3), protobuf.parse_options(
        our_options(compiled, "acc.kitchen3.All"))).schema.reading
    # Messages the accelerator refuses outright are tested on their own below.
    messages = data.draw(st.lists(_mutations(base).filter(lambda m: non_canonical(m, reading) is None),
                                  min_size=20, max_size=60))
    assert_batch_matches(compiled, "acc.kitchen3.All", KITCHEN3, messages, **{"ignore-parse-errors": "true"})


EDGE_MESSAGES = [
    b"",  # every field at its default
    b"\x09" + struct.pack("<d", math.nan) + b"\x15" + struct.pack("<f", -math.inf),  # NaN, -Inf
    b"\x09" + struct.pack("<d", -0.0) + b"\x15" + struct.pack("<f", -0.0),  # -0.0 is present in proto3
    b"\x80\x01\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # the negative enum constant
    b"\x80\x01\x63",  # an enum number the proto3 enum does not declare
    b"\x72\x00\x7a\x00",  # empty string and bytes
    b"\xa0\x06\x01\xaa\x06\x03abc\xa3\x06\xa4\x06",  # unknown varint, bytes and group fields
    b"\x8a\x01\x82\x80\x80\x80\x00\x08\x01",  # a padded 5-byte length
    b"\x98\x80\x80\x80\x00\x05",  # a padded 5-byte tag
    b"\xc2\x01\x04\x08\x01\x12\x00\xc2\x01\x04\x08\x01\x12\x01z",  # a map key twice: last value wins
    b"\xd8\x01\x05\xe2\x01\x00\xea\x01\x02\x08\x01",  # three members of one oneof: the last wins
    b"\x90\x01\x01\x90\x01\x02\x92\x01\x01\x03",  # unpacked and packed runs of one repeated field
    b"\x72\x02\xff\x41",  # invalid UTF-8 in a proto3 string: a parse error
    b"\x72\x05ab",  # truncated
]


def test_edge_messages_decode_as_flink_reads_them(compiled):
    assert_same_rows(compiled, "acc.kitchen3.All", KITCHEN3, EDGE_MESSAGES)
    assert_same_rows(compiled, "acc.kitchen3.All", KITCHEN3, EDGE_MESSAGES, **{"read-default-values": "true"})


@pytest.mark.parametrize("read_defaults", ["false", "true"])
def test_proto2_edge_messages_decode_as_flink_reads_them(compiled, read_defaults):
    messages = [b"", b"\x72\x02\xff\x41", b"\x72\x03\xed\xa0\x80", b"\x80\x01\x07", b"\xa8\x01\x07\xa8\x01\x02",
                b"\x8a\x01\x00", b"\x18\xff\xff\xff\xff\x0f"]
    assert_same_rows(compiled, "acc.kitchen2.All", KITCHEN2, messages, **{"read-default-values": read_defaults})


def test_enum_numbers_read_as_int(compiled):
    row_type = f"ROW<`f_enum` INT, `r_enum` ARRAY<INT>, `f_string` {S}>"
    messages = [b"", b"\x80\x01\x02", b"\x80\x01\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01", b"\x80\x01\x07",
                b"\xaa\x01\x02\x01\x09", b"\x72\x02\xff\x41"]
    assert_same_rows(compiled, "acc.kitchen3.All", row_type, messages)


@pytest.mark.parametrize("ignore", ["false", "true"])
def test_null_messages_as_flink_treats_them(compiled, ignore):
    row_type = f"ROW<`f_int` INT, `f_string` {S}>"
    [flink] = flink_decode(compiled, "acc.kitchen3.All", row_type,
                           flink_options("acc.kitchen3.All", **{"ignore-parse-errors": ignore}), [None])
    decoder = protobuf.ProtobufDecoder(types.parse(row_type), protobuf.parse_options(
        our_options(compiled, "acc.kitchen3.All", **{"ignore-parse-errors": ignore})))
    values = pa.array([b"\x18\x01", None], pa.binary())
    if flink.error is not None:
        assert ignore == "false"
        with pytest.raises(FormatError, match="protobuf.ignore-parse-errors"):
            decoder.decode(values)
    else:
        result = decoder.decode(values)
        assert flink.rows == [] and result.kept.to_pylist() == [0] and result.skipped == 1


@pytest.mark.parametrize("message", [
    b"\xc5\x96\xac\xec\x10B\x01\xb7\xb0",  # a 5-byte tag above 32 bits: Java keeps its low 32 bits
    b"\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",  # a ten-byte value whose last byte is above 1
    b"\x40\xff\xff\xff\xff\xff\xff\xff\xfd\xff\x00",  # a ten-byte sint64 ending in 0: Java sets bit 63
    b"\x8a\x01\x82\x80\x80\x80\x80\x00\x08\x01",  # a six-byte length of a nested message
])
def test_over_long_varints_are_refused_not_guessed(compiled, message):
    """Flink reads these; the accelerator refuses them, whatever ignore-parse-errors says."""
    [flink] = flink_decode(compiled, "acc.kitchen3.All", KITCHEN3, flink_options("acc.kitchen3.All"), [message])
    assert flink.error is None, flink.error
    decoder = protobuf.ProtobufDecoder(types.parse(KITCHEN3), protobuf.parse_options(
        our_options(compiled, "acc.kitchen3.All", **{"ignore-parse-errors": "true"})))
    with pytest.raises(FormatError, match="may read differently"):
        decoder.decode(pa.array([b"", message], pa.binary()))


def test_truncated_message_names_the_option(compiled):
    t = types.parse(KITCHEN3)
    decoder = protobuf.ProtobufDecoder(t, protobuf.parse_options(our_options(compiled, "acc.kitchen3.All")))
    with pytest.raises(FormatError, match="protobuf.ignore-parse-errors") as e:
        decoder.decode(pa.array([b"", b"\x72\x05ab"], pa.binary()))
    assert e.value.row == 1


# -- what is refused -----------------------------------------------------------------------------

@pytest.mark.parametrize("row_type, reason", [
    ("ROW<`nope` INT>", "does not exist"),
    ("ROW<`f_int` BIGINT>", "INT"),
    ("ROW<`f_enum` BIGINT>", "enum"),
    (f"ROW<`r_int` INT>", "ARRAY"),
    (f"ROW<`f_inner` {S}>", "ROW"),
])
def test_unsupported_row_types_are_named(compiled, row_type, reason):
    why = protobuf.supported(row_type, our_options(compiled, "acc.kitchen3.All"), "decode")
    assert why is not None and reason in why


def test_flink_refuses_what_we_refuse(compiled):
    """The row types refused above as type mismatches are ones Flink rejects too."""
    for row_type in ("ROW<`nope` INT>", "ROW<`f_int` BIGINT>", f"ROW<`f_inner` {S}>"):
        with pytest.raises(Exception):
            protobuf_oracle.ProtobufDeserializer(compiled, row_type, flink_options("acc.kitchen3.All"))


def test_missing_schema_keys_are_reported(compiled):
    why = protobuf.supported("ROW<`f_int` INT>", flink_options("acc.kitchen3.All"))
    assert why is not None and protobuf.DESCRIPTOR_SET in why
