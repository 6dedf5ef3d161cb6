"""Generated Nexmark messages, made once per size and format and kept in a cached Arrow file,
then produced into a Kafka topic for a benchmark run."""

from __future__ import annotations

import time
from pathlib import Path

import pyarrow as pa
from confluent_kafka import Producer

from accelerator.bench import nexmark
from accelerator.testing.kafka import KafkaBroker
from accelerator.testing.locations import cache_dir

#: Bump when the generator's output changes, so old cached files are not reused.
GENERATOR_VERSION = 1


def cached_path(count: int, fmt: str, seed: int, table: str = "nexmark") -> Path:
    return cache_dir() / "nexmark" / f"v{GENERATOR_VERSION}-{table}-{fmt}-{count}-seed{seed}.arrow"


def ensure(count: int, fmt: str = "json", seed: int = 42, out=print, table: str = "nexmark") -> Path:
    """The cached file of the messages of `count` events, generating it first if missing."""
    path = cached_path(count, fmt, seed, table)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    partial = path.with_suffix(".partial")
    schema = pa.schema([pa.field("value", pa.binary(), nullable=False)])
    with pa.OSFile(str(partial), "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
        for values in nexmark.messages(count, fmt, seed, table=table):
            writer.write_batch(pa.record_batch([values], schema=schema))
    partial.rename(path)
    out(f"generated {count:,} Nexmark {fmt} events ({table} table) in {time.monotonic() - started:.0f}s -> {path}")
    return path


def batches(path: Path):
    with pa.memory_map(str(path)) as source:
        reader = pa.ipc.open_file(source)
        for i in range(reader.num_record_batches):
            yield reader.get_batch(i).column(0)


def produce(broker: KafkaBroker, topic: str, path: Path, partitions: int) -> int:
    """Write every message of `path` to `topic`, event i to partition i % partitions (each
    partition stays in event-time order); returns the count."""
    producer = Producer({"bootstrap.servers": broker.bootstrap, "log_level": 3, "linger.ms": 20,
                         "batch.size": 1 << 20, "queue.buffering.max.messages": 1_000_000,
                         "queue.buffering.max.kbytes": 1 << 20, "enable.idempotence": True})
    errors: list[str] = []

    def on_delivery(err, msg):
        if err is not None and len(errors) < 5:
            errors.append(f"{msg.topic()}[{msg.partition()}]: {err}")

    count = 0
    for values in batches(path):
        for value in values.to_pylist():
            while True:
                try:
                    producer.produce(topic, value, partition=count % partitions, on_delivery=on_delivery)
                    break
                except BufferError:
                    producer.poll(0.05)
            count += 1
        producer.poll(0)
    remaining = producer.flush(120)
    if remaining or errors:
        raise RuntimeError(f"loading {path} into {topic}: {remaining} messages undelivered, errors: {errors}")
    return count
