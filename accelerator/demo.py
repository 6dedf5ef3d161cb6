"""`make demo`: Nexmark-style bids through a real Kafka broker and the stock Flink distribution.

Loads bid events as JSON, runs a Nexmark q1-style job (currency conversion plus a filter) from
Kafka to Kafka twice on the same cluster (the accelerator's jar in lib/): stock, then with
`accelerator.enabled`. Checks that every expected row arrived and that both runs wrote the same
bytes, and prints what each cost. Everything it starts is stopped before it returns.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterator

from accelerator.testing import locations
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
    operators: list[str]
    output: list[bytes]

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else float("nan")


def load(broker: KafkaBroker, events: int) -> tuple[str, int]:
    """Produce `events` bids to a new topic; returns it and how many rows the job must keep."""
    source = broker.create_topic(f"demo-bids-{int(time.time() * 1000)}")
    generated = list(bids(events))
    broker.produce(source, (b.to_json() for b in generated))
    return source, sum(1 for b in generated if b.auction % 3 == 0)


def run(broker: KafkaBroker, cluster: FlinkCluster, source: str, expected_rows: int,
        accelerated: bool = False) -> RunResult:
    """Run the job once from `source`; check the sink's row count; report the job's duration."""
    label = "accelerated" if accelerated else "stock"
    sink = broker.create_topic(f"{source}-euro-{label}")
    script = f"SET 'accelerator.enabled' = '{str(accelerated).lower()}';\n" + JOB
    (job_id,) = cluster.run_sql(script, {"bootstrap": broker.bootstrap, "source_topic": source,
                                         "sink_topic": sink})
    job = cluster.rest(f"/jobs/{job_id}")
    output = [r.value for r in broker.consume(sink)]
    if len(output) != expected_rows:
        raise AssertionError(f"{label}: sink {sink} has {len(output)} rows, expected {expected_rows}")
    return RunResult(label, events=0, rows_out=len(output), seconds=job["duration"] / 1000,
                     operators=[v["name"] for v in job["vertices"]], output=output)


def main(events: int) -> int:
    print(f"Starting a Kafka broker and the stock Flink distribution with the accelerator jar; "
          f"{events:,} bid events ...")
    jar = locations.require(locations.shim_jar(), "accelerator jar")
    with KafkaBroker() as broker, FlinkCluster(
            extra_jars=[jar], config={"accelerator.python.executable": sys.executable}) as cluster:
        source, expected = load(broker, events)
        results = [run(broker, cluster, source, expected, accelerated=flag) for flag in (False, True)]
    for r in results:
        r.events = events
    stock, accelerated = results
    print(f"{'run':<12}{'events':>12}{'rows out':>12}{'seconds':>10}{'events/s':>12}")
    for r in results:
        print(f"{r.label:<12}{r.events:>12,}{r.rows_out:>12,}{r.seconds:>10.2f}{r.events_per_second:>12,.0f}")
    print(f"ratio accelerated/stock events/s: {accelerated.events_per_second / stock.events_per_second:.2f} "
          "(job wall time on this machine, not a benchmark; see benchmarks/)")
    print("accelerated job graph: " + " | ".join(accelerated.operators))
    if accelerated.output != stock.output:
        print("FAIL: the accelerated run wrote different messages than stock Flink")
        return 1
    print("Outputs identical: every message byte-equal to stock Flink's. All services stopped.")
    return 0
