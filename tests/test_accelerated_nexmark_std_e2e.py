"""Nexmark queries on the benchmark's standard source table, stock vs accelerated, on the real stock
Flink 2.2.1 distribution with the shim jar in `lib/`.

The standard table has one nested ROW per event kind, a computed `dateTime` and a watermark that
Flink pushes into the Kafka source. The accelerated job reads the nested fields in the sidecar and
leaves the watermark out (the Kafka sink never reads it); the sink topic must hold exactly the
bytes the stock job writes, and the job graph must show the accelerated operator.
"""

from __future__ import annotations

import json
import random
import uuid

import pytest

from accelerator.testing import locations

pytestmark = pytest.mark.services

GOLDEN = locations.REPO_ROOT / "substrait-plans"
ACCELERATED = "Accelerated[nexmark-to-out_bid]"


def events(count: int = 3000) -> list[str]:
    """Standard Nexmark events (person, auction, bid rows) as JSON text, mostly bids, with nulls,
    unicode, extreme prices and urls of several depths mixed in."""
    rng = random.Random(20261202)
    out = []
    for i in range(count):
        time = f"2026-01-01 {i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}"
        kind = rng.choices([0, 1, 2], [1, 3, 46])[0]
        event = {"event_type": kind, "person": None, "auction": None, "bid": None}
        if kind == 0:
            event["person"] = {"id": i, "name": "Peter Jones", "emailAddress": "p@x.com", "creditCard": "1 2 3 4",
                               "city": "Boise", "state": "ID", "dateTime": time, "extra": ""}
        elif kind == 1:
            event["auction"] = {"id": i, "itemName": "item", "description": "d", "initialBid": 10, "reserve": 20,
                                "dateTime": time, "expires": time, "seller": 7, "category": 10, "extra": "e"}
        else:
            channel = rng.choice(["Apple", "Google", "Facebook", "Baidu", "channel-7", "ünïcode ✓", None])
            event["bid"] = {
                "auction": rng.choice([rng.randrange(1000, 1500), 123 * rng.randrange(1, 20), None]),
                "bidder": rng.randrange(1000, 3000),
                "price": rng.choice([rng.randrange(1, 10_000_000), 9223372036854775807, -1, None]),
                "channel": channel,
                "url": rng.choice([f"https://www.nexmark.com/{channel}/item.htm?query={i}",
                                   "https://www.nexmark.com/a/b/c/d", "/", None]),
                "dateTime": time,
                "extra": "x" * rng.randrange(0, 40),
            }
        out.append(json.dumps(event, ensure_ascii=rng.random() < 0.5))
    return out




@pytest.fixture(scope="module")
def nexmark_topic(kafka_broker):
    topic = kafka_broker.create_topic(f"nexmark-std-{uuid.uuid4().hex[:8]}")
    kafka_broker.produce(topic, events())
    return topic


def run(gateway, kafka_broker, new_topic, source: str, query: str, settings: str = "") -> tuple[list[bytes], list]:
    sink = new_topic("nexmark-std-out")
    script = (GOLDEN / f"nexmark_std_{query}.sql").read_text(encoding="utf-8")
    (job_id,) = gateway.run_sql(settings + script, {"bootstrap": kafka_broker.bootstrap, "topic:src": source,
                                                    "topic:out": sink})
    names = [v["name"] for v in gateway.cluster.rest(f"/jobs/{job_id}")["vertices"]]
    return [r.value for r in kafka_broker.consume(sink)], names


@pytest.mark.parametrize("query", ["q0", "q1", "q2", "q22"])
def test_standard_table_query_accelerated_writes_the_bytes_stock_writes(accelerated_gateway, kafka_broker, new_topic,
                                                                         nexmark_topic, query):
    stock, stock_names = run(accelerated_gateway, kafka_broker, new_topic, nexmark_topic, query)
    assert len(stock) > 50, "the stock run wrote too little for the comparison to mean much"
    assert not any(ACCELERATED in n for n in stock_names)

    accelerated, names = run(accelerated_gateway, kafka_broker, new_topic, nexmark_topic, query,
                             settings="SET 'accelerator.enabled' = 'true';\n")
    assert any(ACCELERATED in n for n in names), names
    assert accelerated == stock
