"""What a job wrote to its sink topic, reduced to a digest two runs can be compared by.

Ordered digests hash each partition's messages in offset order (length-framed), so equal digests
mean the same bytes in the same order; unordered digests hash the sorted per-message hashes of
each partition. Keeping digests instead of messages lets a run of millions be checked without
holding it in memory.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition

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
    """Yields (partition, value) of every message now in `topic`, in offset order per partition."""
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
                            continue
                        raise KafkaException(msg.error())
                    if msg.offset() < high:
                        yield p, msg.value()
                    position = msg.offset() + 1
            consumer.unassign()
    finally:
        consumer.close()


def digest(broker: KafkaBroker, topic: str, ordered: bool) -> Digest:
    hashes: dict[int, object] = {}
    counts: dict[int, int] = {}
    total_bytes = 0
    for p, value in _read(broker, topic):
        value = value or b""
        total_bytes += len(value)
        counts[p] = counts.get(p, 0) + 1
        if ordered:
            h = hashes.setdefault(p, hashlib.sha256())
            h.update(len(value).to_bytes(8, "little"))
            h.update(value)
        else:
            hashes.setdefault(p, []).append(hashlib.sha256(value).digest())
    parts = []
    for p in sorted(counts):
        if ordered:
            text = hashes[p].hexdigest()
        else:
            text = hashlib.sha256(b"".join(sorted(hashes[p]))).hexdigest()
        parts.append((p, counts[p], text))
    return Digest(sum(counts.values()), total_bytes, tuple(parts))


def first_difference(broker: KafkaBroker, stock_topic: str, other_topic: str) -> str:
    """Where two sink topics first differ (partition, index, both messages), for the error."""
    left, right = _read(broker, stock_topic), _read(broker, other_topic)
    index: dict[int, int] = {}
    while True:
        a, b = next(left, None), next(right, None)
        if a is None and b is None:
            return "no difference in order (the messages are the same, in another order)"
        if a != b:
            where = (a or b)[0]
            i = index.get(where, 0)
            return (f"partition {where}, message {i}: stock {a[1][:300] if a else 'nothing'!r} "
                    f"vs accelerated {b[1][:300] if b else 'nothing'!r}")
        index[a[0]] = index.get(a[0], 0) + 1
