"""The Nexmark generator: the standard model's proportions, ids, hot values and sizes, determinism,
and messages that are exactly what Flink's own json format writes and reads for the table."""

import json
import re
from datetime import datetime

import numpy as np
import pyarrow as pa
import pytest

from accelerator.bench import nexmark
from accelerator.formats import timestamps
from accelerator.bench.nexmark import AUCTION, BID, PERSON

EPOCHS = 400
N = EPOCHS * nexmark.TOTAL_PROPORTION  # 20,000 events


@pytest.fixture(scope="module")
def events():
    (first,) = list(nexmark.events(N))
    return first


@pytest.fixture(scope="module")
def decoded(events):
    """Every message parsed back with Python's json (independent of our encoder)."""
    return [json.loads(m) for m in nexmark.encode_json(events).to_pylist()]


def test_person_auction_bid_are_1_3_46_by_event_id(decoded):
    kinds = [m["event_type"] for m in decoded]
    assert kinds[:50] == [PERSON] + [AUCTION] * 3 + [BID] * 46
    assert kinds == kinds[:50] * EPOCHS
    assert (kinds.count(PERSON), kinds.count(AUCTION), kinds.count(BID)) == (EPOCHS, 3 * EPOCHS, 46 * EPOCHS)
    for m in decoded:  # exactly the row of its kind is set
        set_rows = [k for k in ("person", "auction", "bid") if m[k] is not None]
        assert set_rows == [("person", "auction", "bid")[m["event_type"]]]


def test_ids_are_sequential_from_1000_and_refer_to_existing_or_imminent_ones(decoded):
    persons = [m["person"]["id"] for m in decoded if m["person"]]
    auctions = [m["auction"]["id"] for m in decoded if m["auction"]]
    assert persons == list(range(1000, 1000 + EPOCHS))
    assert auctions == list(range(1000, 1000 + 3 * EPOCHS))
    people = auctions_open = 0
    for m in decoded:
        if m["person"]:
            people += 1
        elif m["auction"]:
            auctions_open += 1
            assert 1000 <= m["auction"]["seller"] < 1000 + people + nexmark.PERSON_ID_LEAD
        else:
            bid = m["bid"]
            assert 1000 <= bid["auction"] < 1000 + auctions_open + nexmark.AUCTION_ID_LEAD
            assert 1000 <= bid["bidder"] < 1000 + people + nexmark.PERSON_ID_LEAD


def test_hot_auctions_bidders_and_channels(decoded):
    bids = [m["bid"] for m in decoded if m["bid"]]
    hot_auction = sum(b["auction"] % 100 == 0 for b in bids) / len(bids)  # (id - 1000) % 100 == 0
    hot_bidder = sum(b["bidder"] % 100 == 1 for b in bids) / len(bids)
    hot_channel = sum(b["channel"] in nexmark.HOT_CHANNELS for b in bids) / len(bids)
    assert 0.5 <= hot_auction < 0.56  # 1/2 hot, plus random picks that happen to be one
    assert 0.75 <= hot_bidder < 0.78
    assert 0.48 < hot_channel < 0.52
    urls = {}
    for b in bids:
        if b["channel"] not in nexmark.HOT_CHANNELS:
            assert re.fullmatch(r"channel-\d{1,4}", b["channel"])
        assert re.fullmatch(r"https://www\.nexmark\.com/[a-z_]{3,4}/[a-z_]{3,4}/[a-z_]{3,4}/item\.htm\?query=1"
                            r"(&channel_id=-?\d+)?", b["url"])
        assert urls.setdefault(b["channel"], b["url"]) == b["url"]  # one URL per channel
    with_id = [u for c, u in urls.items() if c.startswith("channel-")]
    assert 0.85 < sum("channel_id=" in u for u in with_id) / len(with_id) < 0.95
    # channel_id is Java's Math.abs(Integer.reverse(n)): channel-3 -> 0xC0000000 -> 1073741824
    if "channel-3" in urls and "channel_id" in urls["channel-3"]:
        assert urls["channel-3"].endswith("&channel_id=1073741824")


def test_persons_come_from_the_six_states_and_the_model_vocabulary(decoded):
    persons = [m["person"] for m in decoded if m["person"]]
    assert {p["state"] for p in persons} == set(nexmark.US_STATES)
    assert {p["city"] for p in persons} <= set(nexmark.US_CITIES)
    assert all(re.fullmatch(r"\d{4} \d{4} \d{4} \d{4}", p["creditCard"]) for p in persons)
    assert all(re.fullmatch(r"[a-z ]{3,6}@[a-z ]{3,4}\.com", p["emailAddress"]) for p in persons)
    categories = {m["auction"]["category"] for m in decoded if m["auction"]}
    assert categories == set(range(10, 15))


def test_extra_pads_events_to_the_standard_average_sizes(decoded):
    def mean(values):
        return sum(values) / len(values)

    bids = [m["bid"] for m in decoded if m["bid"]]
    persons = [m["person"] for m in decoded if m["person"]]
    auctions = [m["auction"] for m in decoded if m["auction"]]
    assert abs(mean([32 + len(b["extra"]) for b in bids]) - nexmark.AVG_BID_BYTES) < 3
    person_size = [8 + sum(len(p[k]) for k in ("name", "emailAddress", "creditCard", "city", "state"))
                   + len(p["extra"]) for p in persons]
    assert abs(mean(person_size) - nexmark.AVG_PERSON_BYTES) < 6
    auction_size = [48 + len(a["itemName"]) + len(a["description"]) + len(a["extra"]) for a in auctions]
    assert abs(mean(auction_size) - nexmark.AVG_AUCTION_BYTES) < 10


def test_event_time_advances_a_tenth_of_a_millisecond_per_event(decoded):
    base = datetime(2026, 1, 1)
    for i in (0, 1, 9, 10, 11, 12345, N - 1):
        m = decoded[i]
        row = m[("person", "auction", "bid")[m["event_type"]]]
        text = row["dateTime"]
        stamp = datetime.strptime(text, "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S")
        assert (stamp - base).total_seconds() * 1000 == pytest.approx(i // 10)
    for m in decoded:
        if m["auction"]:
            assert m["auction"]["expires"] > m["auction"]["dateTime"]


def test_same_seed_same_bytes_and_longer_runs_extend_shorter_ones():
    first = pa.concat_arrays(list(nexmark.messages(3000, seed=7)))
    assert first.equals(pa.concat_arrays(list(nexmark.messages(3000, seed=7))))
    assert not first.equals(pa.concat_arrays(list(nexmark.messages(3000, seed=8))))
    longer = pa.concat_arrays(list(nexmark.messages(nexmark.CHUNK + 500, seed=7)))
    assert longer.slice(0, 3000).equals(first)
    second_chunk = nexmark.encode_json(nexmark.chunk(7, 1).slice(500))
    assert longer.slice(nexmark.CHUNK).equals(second_chunk)


def test_per_kind_encoding_equals_encoding_the_whole_table_rows(events):
    from accelerator.formats import json_encoder

    whole = json_encoder.encode(events.to_batch(), nexmark.ROW_TYPE, nexmark.JSON_OPTIONS)
    assert nexmark.encode_json(events).equals(whole)


def _oracle_column(column: pa.Array) -> list:
    """A column's values in the oracle's model: rows as tuples, timestamps as nanoseconds."""
    if column.type == timestamps.ARROW_TYPE:
        return timestamps.epoch_nanos(column)
    if pa.types.is_struct(column.type):
        rows = _oracle_rows(column.flatten())
        return [row if valid else None for row, valid in zip(rows, column.is_valid().to_pylist())]
    return column.to_pylist()


def _oracle_rows(columns: list[pa.Array]) -> list[tuple]:
    return list(zip(*[_oracle_column(c) for c in columns]))


def test_messages_are_what_flinks_json_format_writes_and_reads(events):
    from accelerator.testing import flink_oracle as oracle

    sample = np.r_[0:120, 9_000:9_060]
    batch = events.to_batch().take(pa.array(sample))
    rows = _oracle_rows(batch.columns)
    ours = nexmark.encode_json(events).take(pa.array(sample)).to_pylist()
    assert oracle.JsonSerializer(nexmark.NEXMARK_ROW, {}).serialize(rows) == ours
    read = oracle.JsonDeserializer(nexmark.NEXMARK_ROW, {}).deserialize(ours)
    assert [d.error for d in read] == [None] * len(rows)
    assert [d.rows for d in read] == [[r] for r in rows]


BID_ROW = nexmark.ROW_TYPE.fields[BID + 1].type.serializable()


def test_flat_bid_messages_are_what_flinks_json_format_writes_for_the_bid_columns(events):
    from accelerator.testing import flink_oracle as oracle

    bids = events.rows[BID][1].slice(0, 150)
    rows = _oracle_column(bids)
    ours = nexmark.encode_bid_json(events).slice(0, 150).to_pylist()
    assert oracle.JsonSerializer(BID_ROW, {}).serialize(rows) == ours
    assert [d.rows for d in oracle.JsonDeserializer(BID_ROW, {}).deserialize(ours)] == [[r] for r in rows]


def test_avro_messages_are_what_flinks_avro_format_writes_and_reads(events):
    from accelerator.testing import flink_oracle as oracle

    sample = np.r_[0:60, 5_000:5_040]
    rows = _oracle_rows(events.to_batch().take(pa.array(sample)).columns)
    ours = nexmark.encode_avro(events.slice(5_040)).take(pa.array(sample)).to_pylist()
    assert oracle.AvroSerializer(nexmark.NEXMARK_ROW, {}).serialize(rows) == ours
    read = oracle.AvroDeserializer(nexmark.NEXMARK_ROW, {}).deserialize(ours)
    assert [d.rows for d in read] == [[r] for r in rows]
    bids = _oracle_column(events.rows[BID][1].slice(0, 50))
    flat = nexmark.encode_bid_avro(events.slice(60)).to_pylist()[:50]
    assert oracle.AvroSerializer(BID_ROW, {}).serialize(bids) == flat


def test_reshaped_messages_are_other_bytes_that_flink_reads_as_the_same_rows(events):
    from accelerator.testing import flink_oracle as oracle

    sample = pa.array(np.r_[0:150])
    standard = nexmark.encode_json(events).take(sample).to_pylist()
    reshaped = nexmark.encode_reshaped_json(events).take(sample).to_pylist()
    assert any(b" , " in m for m in reshaped) and any(b"\\u0065" in m for m in reshaped)
    assert any(re.match(rb'\s*\{\s*"(person|auction|bid)"', m) for m in reshaped), "some start with another field"
    unchanged = sum(a == b for a, b in zip(standard, reshaped))
    assert unchanged < len(standard) / 4  # each change is drawn for about half of them
    deserializer = oracle.JsonDeserializer(nexmark.NEXMARK_ROW, {})
    assert [d.rows for d in deserializer.deserialize(reshaped)] == [d.rows for d in deserializer.deserialize(standard)]
