"""What a job wrote to its sink topic, reduced to a digest two runs can be compared by.

A message counts by its key, value, headers and timestamp type, and by its timestamp where the
job sets it (a sink writing the `timestamp` metadata column); otherwise the producer stamps the
wall clock, which differs on every run. Ordered digests hash each partition's messages in offset
order (every part length-framed), so equal digests mean the same messages in the same order;
unordered digests hash the sorted per-message hashes of each partition. Keeping digests instead
of messages lets a run of millions be checked without holding it in memory.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, TopicPartition

from accelerator.testing.kafka import KafkaBroker


@dataclass(frozen=True)
class Digest:
    messages: int
    bytes: int
    partitions: tuple[tuple[int, int, str], ...]  # (partition, messages, sha256 hex)


def _consumer(broker: KafkaBroker) -> Consumer:
    return Consumer({"bootstrap.servers": broker.bootstrap, "log_level": 3,
                     "group.id": f"bench-reader-{uuid.uuid4()}", "enable.auto.commit": False,
                     "isolation.level": "read_committed", "enable.partition.eof": True,
                     "fetch.max.bytes": 64 << 20, "max.partition.fetch.bytes": 16 << 20})


def _read(broker: KafkaBroker, topic: str, timeout_s: float = 300.0):
    """Yields (partition, message) of every message now in `topic`, in offset order per partition."""
    consumer = _consumer(broker)
    try:
        metadata = consumer.list_topics(topic, timeout=10).topics[topic]
        if metadata.error is not None:
            raise KafkaException(metadata.error)
        for p in sorted(metadata.partitions):
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)
            if high <= low:
                continue
            consumer.assign([TopicPartition(topic, p, low)])
            position, deadline = low, time.monotonic() + timeout_s
            while position < high:
                # consume() waits for the whole batch or the timeout: keep the timeout short.
                batch = consumer.consume(num_messages=10_000, timeout=0.2)
                if not batch:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"reading {topic}[{p}]: stuck at offset {position} of {high} "
                                           f"after {timeout_s:.0f}s (an open transaction?)")
                    continue
                deadline = time.monotonic() + timeout_s
                for msg in batch:
                    if msg.error() is not None:
                        if msg.error().code() == KafkaError._PARTITION_EOF:
                            # The end, read_committed: an exactly-once sink's last offset holds a
                            # transaction marker, which no consumer receives, so `high` is never reached.
                            position = high
                            continue
                        raise KafkaException(msg.error())
                    if msg.offset() < high:
                        yield p, msg
                    position = msg.offset() + 1
            consumer.unassign()
    finally:
        consumer.close()


def _framed(data: bytes | None) -> bytes:
    """`data` with its length in front (-1: null), so that no two messages hash the same parts."""
    return (-1 if data is None else len(data)).to_bytes(8, "little", signed=True) + (data or b"")


def message_bytes(msg: Message, timestamps: bool) -> bytes:
    """The parts of `msg` a digest covers: key, value, headers in order, timestamp type and,
    when `timestamps`, the timestamp."""
    kind, at = msg.timestamp()
    parts = [_framed(msg.key()), _framed(msg.value()), len(msg.headers() or ()).to_bytes(4, "little")]
    for name, value in msg.headers() or ():
        parts += [_framed(name.encode()), _framed(value)]
    parts.append(kind.to_bytes(1, "little"))
    if timestamps:
        parts.append(at.to_bytes(8, "little", signed=True))
    return b"".join(parts)


def digest(broker: KafkaBroker, topic: str, ordered: bool, timestamps: bool = False, final: bool = False) -> Digest:
    """`timestamps`: the job sets the messages' timestamps, so they must match too. `final`: only
    each key's last message of a partition counts, a tombstone (NULL value) removing the key, as
    an upsert table reads the topic; `messages` and `bytes` then count those."""
    if final:
        return _final_digest(broker, topic, timestamps)
    hashes: dict[int, object] = {}
    counts: dict[int, int] = {}
    total_bytes = 0
    for p, msg in _read(broker, topic):
        total_bytes += len(msg.value() or b"")
        counts[p] = counts.get(p, 0) + 1
        data = message_bytes(msg, timestamps)
        if ordered:
            hashes.setdefault(p, hashlib.sha256()).update(data)
        else:
            hashes.setdefault(p, []).append(hashlib.sha256(data).digest())
    parts = []
    for p in sorted(counts):
        if ordered:
            text = hashes[p].hexdigest()
        else:
            text = _multiset_hash(hashes[p])
        parts.append((p, counts[p], text))
    return Digest(sum(counts.values()), total_bytes, tuple(parts))


def _final_digest(broker: KafkaBroker, topic: str, timestamps: bool) -> Digest:
    last: dict[int, dict[bytes | None, bytes]] = {}
    for p, msg in _read(broker, topic):
        held = last.setdefault(p, {})
        if msg.value() is None:
            held.pop(msg.key(), None)
        else:
            held[msg.key()] = message_bytes(msg, timestamps)
    parts = [(p, len(last[p]), _multiset_hash([hashlib.sha256(m).digest() for m in last[p].values()]))
             for p in sorted(last)]
    return Digest(sum(len(held) for held in last.values()), sum(len(m) for held in last.values() for m in held.values()),
                  tuple(parts))


def _multiset_hash(message_hashes: list[bytes]) -> str:
    """One hash of a partition's messages whatever their order: of their sorted hashes."""
    return hashlib.sha256(b"".join(sorted(message_hashes))).hexdigest()


def first_difference(broker: KafkaBroker, stock_topic: str, other_topic: str) -> str:
    """Where two sink topics first differ (partition, index, both messages), for the error."""
    def parts(topic: str):
        for p, msg in _read(broker, topic):
            yield p, (msg.key(), msg.value(), msg.headers(), msg.timestamp()[0])

    left, right = parts(stock_topic), parts(other_topic)
    index: dict[int, int] = {}
    while True:
        a, b = next(left, None), next(right, None)
        if a is None and b is None:
            return "no difference in order (the messages are the same, in another order)"
        if a != b:
            where = (a or b)[0]
            i = index.get(where, 0)
            return f"partition {where}, message {i}: stock {_shown(a)} vs accelerated {_shown(b)}"
        index[a[0]] = index.get(a[0], 0) + 1


def _shown(message) -> str:
    """(key, value, headers, timestamp type) of a message, cut short, for the error; or nothing."""
    if message is None:
        return "nothing"
    key, value, headers, kind = message[1]
    return f"(key {key!r:.100}, value {value!r:.300}, headers {headers!r:.200}, timestamp type {kind})"


def totals(broker: KafkaBroker, topic: str, key: str, count: str) -> dict:
    """Each `key`'s sum of `count` over every (JSON) message in `topic`: what a processing-time
    windowed count has in common between runs, however the wall clock split its windows."""
    import json

    sums: dict = {}
    for _, msg in _read(broker, topic):
        row = json.loads(msg.value())
        sums[row[key]] = sums.get(row[key], 0) + row[count]
    return sums


def above(totals_: dict, bounds: dict) -> str | None:
    """The first key (smallest) whose total exceeds its bound, described for the error; None if none does."""
    over = sorted(k for k, total in totals_.items() if total > bounds.get(k, 0))
    if not over:
        return None
    k = over[0]
    return f"{len(over)} keys above their bound; the first, {k!r}: {totals_[k]} > {bounds.get(k, 0)}"
