"""The native avro reader (`avro_fast_path`) on the datums where it must stop and hand over.

Datums are built byte by byte here, around the reader's edge cases: varints at their extremes and
in overlong forms, empty, long and non-ASCII strings and invalid UTF-8, union branches that do
not exist, arrays in several blocks, truncated datums and trailing bytes. Each sequence goes to
Flink's deserializer and to our decoder (`assert_decodes_like_flink`); where the native reader
reads a message, its row must be Flink's, and where it flags one, the exact reader's outcome must be.
"""

from __future__ import annotations

import pyarrow as pa
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.bench.formats.inputs import BID_ROW, seed_messages
from accelerator.formats import avro, avro_fast_path, java_utf8, types
from test_avro_decoder import assert_decodes_like_flink

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

S = "VARCHAR(2147483647)"
EDGE = types.parse(
    f"ROW<`i` INT, `l` BIGINT NOT NULL, `s` {S}, `b` VARBINARY(2147483647) NOT NULL, `ts` TIMESTAMP(3), "
    f"`a` ARRAY<ROW<`x` SMALLINT, `y` {S} NOT NULL>>, `r` ROW<`t` TINYINT NOT NULL, `n` ARRAY<BIGINT NOT NULL>>>")


def _varint(value: int, bits: int, extra: int = 0) -> bytes:
    """The zig-zag varint of `value`, with `extra` redundant continuation bytes (an overlong form
    Java reads while it stays within 5 or 10 bytes)."""
    acc = ((value << 1) ^ (value >> (bits - 1))) & ((1 << bits) - 1)
    out = bytearray()
    while True:
        out.append(acc & 0x7F)
        acc >>= 7
        if not acc:
            break
        out[-1] |= 0x80
    for _ in range(extra):
        out[-1] |= 0x80
        out.append(0)
    return bytes(out)


def varints(bits: int) -> st.SearchStrategy[bytes]:
    limit = 1 << (bits - 1)
    value = st.one_of(st.integers(-limit, limit - 1), st.sampled_from([0, -1, 1, limit - 1, -limit]))
    encoded = st.builds(_varint, value, st.just(bits), st.sampled_from([0] * 12 + [1, 2, 6]))
    # any continuation bytes then a last byte: bits beyond 32/64 dropped, or too many bytes
    raw = st.builds(lambda body, last: bytes(b | 0x80 for b in body) + bytes([last]),
                    st.lists(st.integers(0, 255), min_size=bits // 7 - 1, max_size=bits // 7 + 1),
                    st.integers(0, 127))
    return st.one_of(*[encoded] * 9, raw)


INTS, LONGS = varints(32), varints(64)
#: Epoch milliseconds, mostly inside the years Arrow holds as nanoseconds.
MILLIS = st.one_of(*[st.builds(_varint, st.integers(-2 ** 43, 2 ** 43), st.just(64))] * 9, LONGS)
TEXTS = st.one_of(st.text(max_size=6), st.text(min_size=100, max_size=400), st.just(""),
                  st.text(alphabet="é€😀a", max_size=8)).map(lambda t: t.encode())
INVALID = st.sampled_from([b"\xed\xa0\x80", b"\xc3", b"\xff", b"a\xf0\x90\x80", b"\xc0\xaf"])


@st.composite
def _sized(draw, strings: bool = True) -> bytes:
    data = draw(st.one_of(*[TEXTS] * 9, INVALID) if strings else st.binary(max_size=20))
    length = draw(st.sampled_from([len(data)] * 20 + [-1, len(data) + 3]))
    return _varint(length, 32) + data


@st.composite
def _union(draw, value: st.SearchStrategy[bytes]) -> bytes:
    branch = draw(st.sampled_from([1] * 30 + [0] * 10 + [2, -1, 3]))
    return _varint(branch, 32) + (draw(value) if branch == 1 else b"")


@st.composite
def _array(draw, item: st.SearchStrategy[bytes]) -> bytes:
    out = b""
    for _ in range(draw(st.integers(0, 3))):
        items = draw(st.lists(item, min_size=1, max_size=4))
        body = b"".join(items)
        if draw(st.booleans()):
            out += _varint(len(items), 64) + body
        else:  # a negative count, then the block's size in bytes
            out += _varint(-len(items), 64) + _varint(len(body), 64) + body
    return out + b"\x00"


ITEM = _union(st.builds(bytes.__add__, _union(INTS), _sized()))
DATUM = st.tuples(_union(INTS), LONGS, _union(_sized()), _sized(strings=False), _union(MILLIS),
                  _union(_array(ITEM)), _union(st.builds(bytes.__add__, INTS, _array(LONGS)))).map(b"".join)


@st.composite
def _message(draw) -> bytes:
    datum = draw(DATUM)
    how = draw(st.sampled_from(["whole"] * 10 + ["truncated", "trailing"]))
    if how == "truncated" and datum:
        return datum[:draw(st.integers(0, len(datum) - 1))]
    if how == "trailing":
        return datum + draw(st.binary(min_size=1, max_size=3))
    return datum


@settings(SETTINGS, max_examples=200)
@given(messages=st.lists(_message(), min_size=1, max_size=4))
def test_native_edge_cases_decode_like_flink(messages):
    assert assert_decodes_like_flink(EDGE, {}, messages) in ("rows", "failed", "unreproducible")


@SETTINGS
@given(datums=st.lists(st.tuples(INTS, _sized(), _array(LONGS)), min_size=1, max_size=6))
def test_plain_datums_are_read_natively(datums):
    """Datums without odd bytes (canonical or overlong varints within Java's limits, valid UTF-8,
    lengths that fit) never need the exact reader."""
    row_type = types.parse(f"ROW<`i` INT NOT NULL, `s` {S} NOT NULL, `n` ARRAY<BIGINT NOT NULL> NOT NULL>")
    messages = [b"".join(d) for d in datums]
    _, regular = avro_fast_path.decode(pa.array(messages, pa.binary()), avro.derive(row_type))
    for message, is_regular, (i, s, n) in zip(messages, regular, datums):
        plain = (len(i) <= 5 and i[-1] < 0x80 and len(n) <= 200
                 and _plain_sized(s) and _plain_varints(n))
        if plain:
            assert is_regular, message
    assert assert_decodes_like_flink(row_type, {}, messages) in ("rows", "failed")


def _plain_sized(sized: bytes) -> bool:
    n = 0
    for j, b in enumerate(sized):
        n |= (b & 0x7F) << (7 * j)
        if b < 0x80:
            data = sized[j + 1:]
            length = (n >> 1) ^ -(n & 1)
            if length != len(data):
                return False
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                return False
            return True
    return False


def _plain_varints(encoded: bytes) -> bool:
    """Every varint of the array (counts, sizes, items) within 10 bytes."""
    run = 0
    for b in encoded:
        run += 1
        if b < 0x80:
            if run > 10:
                return False
            run = 0
    return run == 0


def test_nexmark_bids_are_all_read_natively():
    values = seed_messages(4096, "avro", out=lambda *_: None)
    _, regular = avro_fast_path.decode(values, avro.derive(BID_ROW))
    assert len(regular) == 4096 and regular.all()


@settings(SETTINGS, max_examples=300)
@given(texts=st.lists(st.one_of(st.binary(max_size=12), st.lists(INVALID, max_size=4).map(b"".join),
                                st.lists(st.sampled_from([b"\xed", b"\xa0", b"\x80", b"\xf0", b"\x90", b"\xf4",
                                                          b"\xe0", b"\xc3", b"a", b"\xbf", b"\xf8"]),
                                         max_size=6).map(b"".join)), min_size=1, max_size=20))
def test_invalid_utf8_is_decoded_natively_as_java_decodes_it(texts):
    """Java's grouping of bad bytes into U+FFFD, as the exact reader's `java_utf8` models it
    (checked against Java itself in test_java_utf8 and through Flink above)."""
    row_type = types.parse(f"ROW<`s` {S} NOT NULL>")
    messages = [_varint(len(t), 32) + t for t in texts]
    columns, regular = avro_fast_path.decode(pa.array(messages, pa.binary()), avro.derive(row_type))
    assert regular.all()
    assert columns[0].to_pylist() == [java_utf8.decode(t) for t in texts]
