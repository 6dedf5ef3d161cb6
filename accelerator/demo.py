"""`make demo`: Nexmark-style bids through a real Kafka broker and the stock Flink distribution.

Loads bid events as JSON, runs a Nexmark q1-style job (currency conversion plus a filter) from
Kafka to Kafka, checks that every expected row arrived and prints what it cost. Everything it
starts is stopped before it returns.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterator

from accelerator.testing.flink import FlinkCluster
from accelerator.testing.kafka import KafkaBroker

CHANNELS = ("Google", "Facebook", "Baidu", "Apple")
START = datetime(2026, 1, 1)

JOB = """
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING
) WITH (
  'connector' = 'kafka', 'topic' = '${source_topic}',
  'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
);
CREATE TABLE bid_euro (
  auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), channel STRING, `dateTime` TIMESTAMP(3)
) WITH (
  'connector' = 'kafka', 'topic' = '${sink_topic}',
  'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json'
);
INSERT INTO bid_euro
SELECT auction, bidder, 0.908 * price, channel, `dateTime` FROM bid WHERE MOD(auction, 3) = 0;
"""


@dataclass(frozen=True)
class Bid:
    auction: int
    bidder: int
    price: int
    channel: str
    url: str
    date_time: datetime
    extra: str

    def to_json(self) -> bytes:
        return json.dumps({
            "auction": self.auction, "bidder": self.bidder, "price": self.price,
            "channel": self.channel, "url": self.url,
            "dateTime": self.date_time.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], "extra": self.extra,
        }, separators=(",", ":")).encode()


def bids(count: int, seed: int = 42) -> Iterator[Bid]:
    """Deterministic bids with Nexmark's shape: ids from 1000, hot auctions, ~200-byte records."""
    rng = random.Random(seed)
    for i in range(count):
        auction = 1000 + (rng.randrange(10) if rng.random() < 0.5 else rng.randrange(i // 5 + 10))
        channel = rng.choice(CHANNELS) if rng.random() < 0.9 else f"channel-{rng.randrange(10_000)}"
        yield Bid(auction=auction, bidder=1000 + rng.randrange(i // 10 + 10),
                  price=rng.randrange(1, 100_000_000), channel=channel,
                  url=f"https://www.nexmark.com/{channel.lower()}/item.htm?query=1&channel_id={rng.randrange(1 << 20)}",
                  date_time=START + timedelta(milliseconds=i * 10),
                  extra="x" * rng.randrange(60, 100))


@dataclass
class RunResult:
    label: str
    events: int
    rows_out: int
    seconds: float

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else float("nan")


def run(broker: KafkaBroker, cluster: FlinkCluster, events: int, label: str = "stock") -> RunResult:
    """Load `events` bids, run the job once on `cluster`, check the sink, report the job's duration."""
    stamp = int(time.time() * 1000)
    source = broker.create_topic(f"demo-bids-{stamp}")
    sink = broker.create_topic(f"demo-bids-euro-{label}-{stamp}")
    generated = list(bids(events))
    broker.produce(source, (b.to_json() for b in generated))
    (job_id,) = cluster.run_sql(JOB, {"bootstrap": broker.bootstrap, "source_topic": source,
                                      "sink_topic": sink})
    seconds = cluster.rest(f"/jobs/{job_id}")["duration"] / 1000
    rows_out = len(broker.consume(sink))
    expected = sum(1 for b in generated if b.auction % 3 == 0)
    if rows_out != expected:
        raise AssertionError(f"{label}: sink {sink} has {rows_out} rows, expected {expected}")
    return RunResult(label, events, rows_out, seconds)


def main(events: int) -> int:
    print(f"Starting a Kafka broker and the stock Flink distribution; {events:,} bid events ...")
    with KafkaBroker() as broker, FlinkCluster() as cluster:
        results = [run(broker, cluster, events)]
    print(f"{'run':<12}{'events':>12}{'rows out':>12}{'seconds':>10}{'events/s':>12}")
    for r in results:
        print(f"{r.label:<12}{r.events:>12,}{r.rows_out:>12,}{r.seconds:>10.2f}{r.events_per_second:>12,.0f}")
    print("All services stopped.")
    return 0
