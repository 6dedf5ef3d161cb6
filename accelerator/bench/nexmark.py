"""Nexmark events, generated column-wise and encoded as Flink's formats write the `nexmark` table.

The model is the standard Nexmark generator's: event ids 0, 1, 2, ... split person:auction:bid =
1:3:46 by `id % 50`; person and auction ids are sequential from 1000 and follow from the event id;
bids mostly go to the current hot auction and come from the current hot bidder, auctions mostly
from the hot seller; persons live in 6 US states; half the bids come from the 4 hot channels, the
rest from `channel-<n>` (n < 10,000) whose URL usually carries a `channel_id`; `extra` pads each
event to the standard average size (person 200, auction 500, bid 100 bytes of the model's size
estimate); event time advances by a fixed delay per event from a fixed base time.

Random draws come from numpy (not java.util.Random), so the values are the model's, not the
reference generator's exact ones. Events are made in chunks of `CHUNK` with one seed per chunk,
so the first k events are the same bytes whatever the total, and the same seed gives the same
bytes on every machine.

The JSON messages are what Flink's `json` format writes for the standard `nexmark` table
(`event_type INT, person ROW<...>, auction ROW<...>, bid ROW<...>`; the computed `dateTime` is not
stored): the project's byte-exact encoder turns the Arrow rows into those bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import json_encoder, timestamps, types
from accelerator.formats.json_options import JsonOptions

PERSON, AUCTION, BID = 0, 1, 2
PERSON_PROPORTION, AUCTION_PROPORTION, BID_PROPORTION = 1, 3, 46
TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION
FIRST_PERSON_ID = 1000
FIRST_AUCTION_ID = 1000
FIRST_CATEGORY_ID = 10
NUM_CATEGORIES = 5
NUM_ACTIVE_PEOPLE = 1000
PERSON_ID_LEAD = 10
NUM_IN_FLIGHT_AUCTIONS = 100
AUCTION_ID_LEAD = 10
HOT_SELLER_RATIO = 100  # hot ids are the first of each block of this many
HOT_AUCTION_RATIO = 100
HOT_BIDDER_RATIO = 100
HOT_SELLERS_ODDS = 4  # P(hot) = 1 - 1/odds
HOT_AUCTIONS_ODDS = 2
HOT_BIDDERS_ODDS = 4
HOT_CHANNELS_ODDS = 2
CHANNELS = 10_000
HOT_CHANNELS = ("Google", "Facebook", "Baidu", "Apple")
US_STATES = ("AZ", "CA", "ID", "OR", "WA", "WY")
US_CITIES = ("Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond",
             "Seattle", "Kent", "Cheyenne")
FIRST_NAMES = ("Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah",
               "Deiter", "Walter")
LAST_NAMES = ("Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris")
AVG_PERSON_BYTES, AVG_AUCTION_BYTES, AVG_BID_BYTES = 200, 500, 100

#: Events per independently seeded chunk; a constant, so generation is a prefix-stable stream.
CHUNK = 250_000
BASE_TIME = datetime(2026, 1, 1, tzinfo=timezone.utc)
#: Event-time rate: 10,000 events per second of event time (0.1 ms apart), the model's default.
EVENTS_PER_SECOND = 10_000

NEXMARK_ROW = (
    "ROW<`event_type` INT, "
    "`person` ROW<`id` BIGINT, `name` VARCHAR(2147483647), `emailAddress` VARCHAR(2147483647), "
    "`creditCard` VARCHAR(2147483647), `city` VARCHAR(2147483647), `state` VARCHAR(2147483647), "
    "`dateTime` TIMESTAMP(3), `extra` VARCHAR(2147483647)>, "
    "`auction` ROW<`id` BIGINT, `itemName` VARCHAR(2147483647), `description` VARCHAR(2147483647), "
    "`initialBid` BIGINT, `reserve` BIGINT, `dateTime` TIMESTAMP(3), `expires` TIMESTAMP(3), "
    "`seller` BIGINT, `category` BIGINT, `extra` VARCHAR(2147483647)>, "
    "`bid` ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` VARCHAR(2147483647), "
    "`url` VARCHAR(2147483647), `dateTime` TIMESTAMP(3), `extra` VARCHAR(2147483647)>>"
)
ROW_TYPE = types.parse(NEXMARK_ROW)
SCHEMA = types.to_arrow_schema(ROW_TYPE)


# -- the model's id arithmetic (vectorized over event ids) ----------------------------------------

def event_types(event_ids: np.ndarray) -> np.ndarray:
    rem = event_ids % TOTAL_PROPORTION
    return np.where(rem < PERSON_PROPORTION, PERSON,
                    np.where(rem < PERSON_PROPORTION + AUCTION_PROPORTION, AUCTION, BID)).astype(np.int32)


def last_base0_person_id(event_ids: np.ndarray) -> np.ndarray:
    """Id (from 0) of the newest person at this event: one person per 50 events."""
    epoch, rem = np.divmod(event_ids, TOTAL_PROPORTION)
    return epoch * PERSON_PROPORTION + np.minimum(rem, PERSON_PROPORTION - 1)


def last_base0_auction_id(event_ids: np.ndarray) -> np.ndarray:
    """Id (from 0) of the newest auction at this event: three auctions per 50 events."""
    epoch, rem = np.divmod(event_ids, TOTAL_PROPORTION)
    before = rem < PERSON_PROPORTION
    after = rem >= PERSON_PROPORTION + AUCTION_PROPORTION
    offset = np.where(before | after, AUCTION_PROPORTION - 1, rem - PERSON_PROPORTION)
    return np.where(before, epoch - 1, epoch) * AUCTION_PROPORTION + offset


def timestamps_ms(event_ids: np.ndarray, events_per_second: int = EVENTS_PER_SECOND) -> np.ndarray:
    base = int(BASE_TIME.timestamp() * 1000)
    return base + (event_ids * 1_000_000 // events_per_second) // 1000


# -- random values --------------------------------------------------------------------------------

def _strings_of(data: np.ndarray, lengths: np.ndarray) -> pa.StringArray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.StringArray.from_buffers(len(lengths), pa.py_buffer(offsets), pa.py_buffer(data))


def _letter_table() -> np.ndarray:
    """Byte for each 16-bit draw: a space one time in 13, else a letter (bias below 0.5%)."""
    v = np.arange(1 << 16) % (26 * 13)
    return np.where(v < 26, ord(" "), ord("a") + v % 26).astype(np.uint8)


_LETTERS = _letter_table()


def random_strings(rng: np.random.Generator, lengths: np.ndarray, special: int = ord(" ")) -> pa.StringArray:
    """Lower-case letters with `special` one time in 13, as the model's strings."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    draws = np.frombuffer(rng.bytes(2 * total), dtype=np.uint16)
    data = _LETTERS[draws]
    if special != ord(" "):
        data[data == ord(" ")] = special
    return _strings_of(data, lengths)


def next_strings(rng: np.random.Generator, n: int, max_length: int, special: int = ord(" ")) -> pa.StringArray:
    """Strings of 3 to max_length - 1 characters."""
    return random_strings(rng, 3 + rng.integers(0, max_length - 3, n), special)


def next_extra(rng: np.random.Generator, current_size: np.ndarray, average: int) -> pa.StringArray:
    """Padding so that size estimate + padding averages `average` (+-20%)."""
    want = np.maximum(average - np.asarray(current_size, dtype=np.int64), 0)
    delta = np.round(want * 0.2).astype(np.int64)
    spread = np.where(delta > 0, rng.integers(0, np.maximum(2 * delta, 1)), 0)
    return random_strings(rng, want - delta + spread)


def next_prices(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.round(10.0 ** (rng.random(n) * 6.0) * 100.0).astype(np.int64)


def next_base0_person_ids(rng: np.random.Generator, event_ids: np.ndarray) -> np.ndarray:
    """A recently joined person: one of the last 1000 (or the next 10 to come)."""
    people = last_base0_person_id(event_ids) + 1
    active = np.minimum(people, NUM_ACTIVE_PEOPLE)
    return people - active + rng.integers(0, active + PERSON_ID_LEAD)


def next_base0_auction_ids(rng: np.random.Generator, event_ids: np.ndarray) -> np.ndarray:
    """An auction in flight: one of the last 100 (or the next 10 to come)."""
    last = last_base0_auction_id(event_ids)
    low = np.maximum(last - NUM_IN_FLIGHT_AUCTIONS, 0)
    return low + rng.integers(0, last - low + 1 + AUCTION_ID_LEAD)


def _lengths(arr: pa.Array) -> np.ndarray:
    return pc.utf8_length(arr).to_numpy(zero_copy_only=False).astype(np.int64)


def _join(*parts) -> pa.Array:
    return pc.binary_join_element_wise(*parts, "")


def _pick(rng: np.random.Generator, options: tuple[str, ...], n: int) -> pa.Array:
    return pc.take(pa.array(options, pa.string()), pa.array(rng.integers(0, len(options), n)))


def _ts(ms: np.ndarray) -> pa.Array:
    return timestamps.from_parts(ms.astype(np.int64), np.zeros(len(ms), dtype=np.int32))


@dataclass(frozen=True)
class Channels:
    """The hot channels' URLs and the `channel-<n>` table, fixed per seed."""

    hot_urls: pa.Array
    names: pa.Array
    urls: pa.Array

    @classmethod
    def make(cls, seed: int) -> "Channels":
        rng = np.random.default_rng([seed, 0xC4A7])

        def base_urls(n: int) -> pa.Array:
            parts = [next_strings(rng, n, 5, special=ord("_")) for _ in range(3)]
            return _join("https://www.nexmark.com/", parts[0], "/", parts[1], "/", parts[2],
                         "/item.htm?query=1")

        numbers = np.arange(CHANNELS, dtype=np.int64)
        base = base_urls(CHANNELS)
        # Integer.reverse(n) as an unsigned 32-bit pattern, then Math.abs of the signed value.
        reversed_bits = np.array([int(f"{n:032b}"[::-1], 2) for n in range(CHANNELS)], dtype=np.int64)
        signed = np.where(reversed_bits >= 1 << 31, reversed_bits - (1 << 32), reversed_bits)
        java_abs = np.where(signed == -(1 << 31), signed, np.abs(signed))  # Math.abs(MIN_VALUE) < 0
        with_id = _join(base, "&channel_id=", pa.array(java_abs).cast(pa.string()))
        urls = pc.if_else(pa.array(rng.integers(0, 10, CHANNELS) > 0), with_id, base)
        names = _join("channel-", pa.array(numbers).cast(pa.string()))
        return cls(base_urls(len(HOT_CHANNELS)), names, urls)


# -- one kind of event per function; each returns the struct column of its rows -----------------

def persons(rng: np.random.Generator, event_ids: np.ndarray, ts: np.ndarray) -> pa.StructArray:
    n = len(event_ids)
    ids = last_base0_person_id(event_ids) + FIRST_PERSON_ID
    name = _join(_pick(rng, FIRST_NAMES, n), " ", _pick(rng, LAST_NAMES, n))
    email = _join(next_strings(rng, n, 7), "@", next_strings(rng, n, 5), ".com")
    digits = rng.integers(0, 10_000, (4, n))
    card = _join(*[x for i in range(4) for x in
                   ((" ",) if i else ()) + (pc.utf8_lpad(pa.array(digits[i]).cast(pa.string()), 4, "0"),)])
    city, state = _pick(rng, US_CITIES, n), _pick(rng, US_STATES, n)
    size = 8 + _lengths(name) + _lengths(email) + _lengths(card) + _lengths(city) + _lengths(state)
    extra = next_extra(rng, size, AVG_PERSON_BYTES)
    return pa.StructArray.from_arrays(
        [pa.array(ids), name, email, card, city, state, _ts(ts), extra],
        fields=list(SCHEMA.field("person").type))


def auctions(rng: np.random.Generator, event_ids: np.ndarray, ts: np.ndarray,
             events_per_second: int) -> pa.StructArray:
    n = len(event_ids)
    ids = last_base0_auction_id(event_ids) + FIRST_AUCTION_ID
    hot = rng.integers(0, HOT_SELLERS_ODDS, n) > 0
    seller = np.where(hot, (last_base0_person_id(event_ids) // HOT_SELLER_RATIO) * HOT_SELLER_RATIO,
                      next_base0_person_ids(rng, event_ids)) + FIRST_PERSON_ID
    category = FIRST_CATEGORY_ID + rng.integers(0, NUM_CATEGORIES, n)
    initial = next_prices(rng, n)
    reserve = initial + next_prices(rng, n)
    # An auction runs until about the time the next 100 auctions have been opened.
    horizon = timestamps_ms(event_ids + NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION // AUCTION_PROPORTION,
                            events_per_second) - ts
    expires = ts + 1 + rng.integers(0, np.maximum(horizon * 2, 1))
    item, description = next_strings(rng, n, 20), next_strings(rng, n, 100)
    size = 8 + _lengths(item) + _lengths(description) + 8 * 5
    extra = next_extra(rng, size, AVG_AUCTION_BYTES)
    return pa.StructArray.from_arrays(
        [pa.array(ids), item, description, pa.array(initial), pa.array(reserve), _ts(ts), _ts(expires),
         pa.array(seller), pa.array(category), extra],
        fields=list(SCHEMA.field("auction").type))


def bids(rng: np.random.Generator, event_ids: np.ndarray, ts: np.ndarray, channels: Channels) -> pa.StructArray:
    n = len(event_ids)
    hot_auction = rng.integers(0, HOT_AUCTIONS_ODDS, n) > 0
    auction = np.where(hot_auction, (last_base0_auction_id(event_ids) // HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO,
                       next_base0_auction_ids(rng, event_ids)) + FIRST_AUCTION_ID
    hot_bidder = rng.integers(0, HOT_BIDDERS_ODDS, n) > 0
    bidder = np.where(hot_bidder, (last_base0_person_id(event_ids) // HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1,
                      next_base0_person_ids(rng, event_ids)) + FIRST_PERSON_ID
    price = next_prices(rng, n)
    hot_channel = pa.array(rng.integers(0, HOT_CHANNELS_ODDS, n) > 0)
    hot_index = pa.array(rng.integers(0, len(HOT_CHANNELS), n))
    other = pa.array(rng.integers(0, CHANNELS, n))
    channel = pc.if_else(hot_channel, pc.take(pa.array(HOT_CHANNELS), hot_index), pc.take(channels.names, other))
    url = pc.if_else(hot_channel, pc.take(channels.hot_urls, hot_index), pc.take(channels.urls, other))
    extra = next_extra(rng, np.full(n, 8 * 4), AVG_BID_BYTES)
    return pa.StructArray.from_arrays(
        [pa.array(auction), pa.array(bidder), pa.array(price), channel, url, _ts(ts), extra],
        fields=list(SCHEMA.field("bid").type))


@dataclass(frozen=True)
class Chunk:
    """Events `first` .. `first + len(kinds) - 1`: each kind's rows as one compact struct column."""

    first: int
    kinds: np.ndarray
    rows: dict[int, tuple[np.ndarray, pa.StructArray]]  # kind -> (positions in the chunk, rows)

    def __len__(self) -> int:
        return len(self.kinds)

    def slice(self, length: int) -> "Chunk":
        rows = {}
        for kind, (at, struct) in self.rows.items():
            keep = int(np.searchsorted(at, length))
            rows[kind] = (at[:keep], struct.slice(0, keep))
        return Chunk(self.first, self.kinds[:length], rows)

    def to_batch(self) -> pa.RecordBatch:
        """The chunk as rows of the nexmark table (a null struct where the event is another kind)."""
        columns = [pa.array(self.kinds, pa.int32())]
        for kind in (PERSON, AUCTION, BID):
            at, struct = self.rows[kind]
            index = np.full(len(self.kinds), -1, dtype=np.int64)
            index[at] = np.arange(len(at))
            columns.append(pc.take(struct, pa.array(index, mask=index < 0)))
        return pa.RecordBatch.from_arrays(columns, schema=SCHEMA)


def chunk(seed: int, number: int, channels: Channels | None = None,
          events_per_second: int = EVENTS_PER_SECOND) -> Chunk:
    """Events number*CHUNK .. (number+1)*CHUNK - 1."""
    channels = channels or Channels.make(seed)
    rng = np.random.default_rng([seed, number])
    event_ids = np.arange(number * CHUNK, (number + 1) * CHUNK, dtype=np.int64)
    kinds = event_types(event_ids)
    ts = timestamps_ms(event_ids, events_per_second)
    rows = {}
    for kind, make in ((PERSON, lambda ids, t: persons(rng, ids, t)),
                       (AUCTION, lambda ids, t: auctions(rng, ids, t, events_per_second)),
                       (BID, lambda ids, t: bids(rng, ids, t, channels))):
        at = np.flatnonzero(kinds == kind)
        rows[kind] = (at, make(event_ids[at], ts[at]))
    return Chunk(number * CHUNK, kinds, rows)


def events(count: int, seed: int = 42, events_per_second: int = EVENTS_PER_SECOND):
    """The first `count` events as chunks of at most CHUNK events."""
    channels = Channels.make(seed)
    for number in range((count + CHUNK - 1) // CHUNK):
        yield chunk(seed, number, channels, events_per_second).slice(min(CHUNK, count - number * CHUNK))


def bids_per(column: str, count: int, seed: int = 42) -> dict:
    """How many of the first `count` events' bids carry each value of the bid's `column`."""
    totals: dict = {}
    for chunk_ in events(count, seed):
        _, struct = chunk_.rows[BID]
        counted = pc.value_counts(struct.field(column))
        for value, n in zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist()):
            totals[value] = totals.get(value, 0) + n
    return totals


# -- encodings ------------------------------------------------------------------------------------

JSON_OPTIONS = JsonOptions()
_KIND_FIELD = {PERSON: "person", AUCTION: "auction", BID: "bid"}


def encode_json(events: Chunk) -> pa.BinaryArray:
    """What Flink's `json` format (default options) writes for each event's row.

    Each kind's rows are encoded on their own (the other two structs are null, so their text is
    fixed) and the messages put back in event order: the same bytes as encoding `to_batch()`
    whole, without encoding two null struct columns per row.
    """
    texts, index = [], np.empty(len(events), dtype=np.int64)
    done = 0
    for kind, name in _KIND_FIELD.items():
        at, struct = events.rows[kind]
        inner = json_encoder.encode_values(struct, ROW_TYPE.fields[kind + 1].type, JSON_OPTIONS)
        names = list(_KIND_FIELD.values())
        prefix = f'{{"event_type":{kind},' + "".join(f'"{n}":null,' for n in names[:kind]) + f'"{name}":'
        suffix = "".join(f',"{n}":null' for n in names[kind + 1:]) + "}"
        texts.append(pc.binary_join_element_wise(prefix, inner, suffix, ""))
        index[at] = done + np.arange(len(at))
        done += len(at)
    return pc.take(pa.concat_arrays(texts), pa.array(index)).cast(pa.binary())


def encode_bid_json(events: Chunk) -> pa.BinaryArray:
    """The bids alone, as Flink's `json` format writes a flat `bid` table (the columns of the
    `bid` view): each message is the text of the nested bid row."""
    _, struct = events.rows[BID]
    return json_encoder.encode_values(struct, ROW_TYPE.fields[BID + 1].type, JSON_OPTIONS).cast(pa.binary())


#: Share of the messages of the reshaped table that get each change (drawn independently).
RESHAPE_SHARE = 0.5


def _reordered(value, rng: np.random.Generator):
    """A JSON value with the fields of each object in a random order."""
    if not isinstance(value, dict):
        return value
    items = list(value.items())
    return {k: _reordered(v, rng) for k, v in (items[i] for i in rng.permutation(len(items)))}


def encode_reshaped_json(events: Chunk) -> pa.BinaryArray:
    """The standard table's messages as other JSON producers write them: about half each with the
    fields of every object shuffled, with whitespace around every token, and with escapes that
    Flink's encoder never writes (`\\/` for `/`, `\\u0065` for `e`). Flink reads the same rows
    from them; they are the decoder's harder inputs (`encode_json`'s are its best case). The rows
    hold no booleans or exponents, so every `e` the escaping meets is in a string or a name."""
    import json

    rng = np.random.default_rng([events.first, 0x5E5A])
    changes = rng.random((len(events), 3)) < RESHAPE_SHARE
    out = []
    for text, (shuffle, spaced, escaped) in zip(encode_json(events).to_pylist(), changes):
        value = json.loads(text)
        value = _reordered(value, rng) if shuffle else value
        message = json.dumps(value, separators=(" , ", " : ") if spaced else (",", ":"))
        message = f" {message}\n" if spaced else message
        if escaped:
            message = message.replace("/", "\\/").replace("e", "\\u0065")
        out.append(message.encode())
    return pa.array(out, pa.binary())


def _avro_schema(t: types.DataType, name: str) -> object:
    """The Avro schema Flink's `avro` format derives for a Flink type (nullable -> union with
    null; TIMESTAMP(3) -> long, the timestamp-millis logical type left out: same bytes)."""
    if t.root == "ROW":
        schema = {"type": "record", "name": name,
                  "fields": [{"name": f.name, "type": _avro_schema(f.type, f"{name}_{f.name}")} for f in t.fields]}
    else:
        schema = {"INT": "int", "BIGINT": "long", "VARCHAR": "string", "TIMESTAMP": "long"}[t.root]
    return ["null", schema] if t.nullable else schema


def _avro_writer(row_type: types.DataType):
    import io

    import fastavro

    # The Kafka connector hands the format the physical row as NOT NULL: a plain record.
    top = types.DataType("ROW", nullable=False, fields=row_type.fields)
    schema = fastavro.parse_schema(_avro_schema(top, "record"))

    def write(rows: list[dict]) -> pa.BinaryArray:
        out = []
        for row in rows:
            buffer = io.BytesIO()
            fastavro.schemaless_writer(buffer, schema, row)
            out.append(buffer.getvalue())
        return pa.array(out, pa.binary())

    return write


def _millis(batch: pa.RecordBatch) -> pa.RecordBatch:
    """Timestamps as epoch milliseconds (int64), for the Avro writer."""
    def convert(arr: pa.Array) -> pa.Array:
        if arr.type == timestamps.ARROW_TYPE:
            return timestamps.millis(arr)
        if pa.types.is_struct(arr.type):
            children = [convert(arr.field(i)) for i in range(arr.type.num_fields)]
            return pa.StructArray.from_arrays(children, names=[f.name for f in arr.type],
                                              mask=pc.invert(arr.is_valid()))
        return arr
    return pa.RecordBatch.from_arrays([convert(c) for c in batch.columns], names=batch.schema.names)


def encode_avro(events: Chunk) -> pa.BinaryArray:
    """What Flink's `avro` format (plain Avro binary, no header) writes for each event's row."""
    return _avro_writer(ROW_TYPE)(_millis(events.to_batch()).to_pylist())


def encode_bid_avro(events: Chunk) -> pa.BinaryArray:
    _, struct = events.rows[BID]
    bid_row = ROW_TYPE.fields[BID + 1].type
    batch = _millis(pa.RecordBatch.from_struct_array(struct))
    return _avro_writer(bid_row)(batch.to_pylist())


#: (table, format) -> encoder. `nexmark` is the standard table (every event); `bid` is a flat
#: table of the bids only; `nexmark_reshaped` the standard table's rows as JSON other producers write.
ENCODERS = {("nexmark", "json"): encode_json, ("bid", "json"): encode_bid_json,
            ("nexmark_reshaped", "json"): encode_reshaped_json,
            ("nexmark", "avro"): encode_avro, ("bid", "avro"): encode_bid_avro}
TABLES = ("nexmark", "bid", "nexmark_reshaped")
FORMATS = sorted({fmt for _, fmt in ENCODERS})


def messages(count: int, fmt: str = "json", seed: int = 42,
             events_per_second: int = EVENTS_PER_SECOND, table: str = "nexmark"):
    """Message values for the first `count` events, one BinaryArray per chunk."""
    try:
        encode = ENCODERS[(table, fmt)]
    except KeyError:
        raise ValueError(f"no Nexmark encoder for table {table!r} in format {fmt!r}; "
                         f"have {sorted(ENCODERS)}") from None
    for events_ in events(count, seed, events_per_second):
        yield encode(events_)
