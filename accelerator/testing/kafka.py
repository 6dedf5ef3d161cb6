"""A real single-node Kafka broker (KRaft mode) as its own JVM on free loopback ports."""

from __future__ import annotations

import base64
import shutil
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from accelerator.testing import locations, processes

_LOG4J2 = """\
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = {log}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.state.name = state.change.logger
logger.state.level = WARN
"""


_LEADERSHIP_SETTLING = {KafkaError.NOT_LEADER_FOR_PARTITION, KafkaError.LEADER_NOT_AVAILABLE,
                        KafkaError.UNKNOWN_TOPIC_OR_PART}


class ProduceFailed(RuntimeError):
    """The broker did not take every record (e.g. a timestamp it rejects); nothing is retried."""


@dataclass(frozen=True)
class Record:
    """One Kafka message as produced or read back. `value`/`key` are bytes, or None."""

    value: bytes | None
    key: bytes | None = None
    partition: int | None = None
    timestamp: int | None = None  # epoch milliseconds
    headers: tuple[tuple[str, bytes | None], ...] = field(default=())
    offset: int | None = None


def _as_bytes(data: bytes | str | None) -> bytes | None:
    return data.encode("utf-8") if isinstance(data, str) else data


class KafkaBroker:
    """Starts with `start()` (or `with KafkaBroker() as broker:`), stops with `stop()`.

    The broker's data and `server.log` live in `workdir`; `stop(keep_logs=True)` keeps them for
    a post-mortem, otherwise the folder is removed.
    """

    def __init__(self, workdir: Path | None = None, heap: str = "768m",
                 die_with_parent: bool = True):
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="accelerator-kafka-"))
        self.heap = heap
        self.die_with_parent = die_with_parent
        self.port = 0
        self.controller_port = 0
        self.process: subprocess.Popen | None = None
        self._pid: int | None = None  # set instead of `process` when reattached from another process

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def log_file(self) -> Path:
        return self.workdir / "server.log"

    def __enter__(self) -> "KafkaBroker":
        return self.start()

    def __exit__(self, exc_type, *_) -> None:
        self.stop(keep_logs=exc_type is not None)

    def start(self, timeout_s: float = 90.0) -> "KafkaBroker":
        libs = locations.require(locations.kafka_broker_libs(), "Kafka broker jars")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port, self.controller_port = processes.free_port(), processes.free_port()
        config = self._write_config()
        classpath = f"{libs}/*"
        java = ["java", f"-Xmx{self.heap}", "-Djava.awt.headless=true",
                f"-Dlog4j2.configurationFile={self.workdir / 'log4j2.properties'}",
                "-cp", classpath]
        cluster_id = "-"
        while cluster_id.startswith("-"):  # the storage tool would read a leading '-' as an option
            cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        formatted = subprocess.run([*java, "kafka.tools.StorageTool", "format", "-t", cluster_id,
                                    "-c", str(config)], capture_output=True, text=True)
        if formatted.returncode != 0:
            raise RuntimeError(f"Kafka storage format failed:\n{formatted.stdout}{formatted.stderr}")
        self.process = processes.spawn([*java, "kafka.Kafka", str(config)],
                                       self.workdir / "broker.out", cwd=self.workdir,
                                       die_with_parent=self.die_with_parent)
        self._wait_ready(timeout_s)
        return self

    def _write_config(self) -> Path:
        properties = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.voters": f"1@127.0.0.1:{self.controller_port}",
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name": "PLAINTEXT",
            "log.dirs": str(self.workdir / "data"),
            # Keep every record: cases produce messages with old timestamps (event time), which the
            # default 7-day retention would delete at a random retention check, mid-run.
            "log.retention.ms": "-1",
            # Single node: internal topics cannot have more than one replica.
            "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "1",
            "transaction.state.log.replication.factor": "1",
            "transaction.state.log.min.isr": "1",
            "transaction.state.log.num.partitions": "1",
            "share.coordinator.state.topic.replication.factor": "1",
            "share.coordinator.state.topic.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            "num.partitions": "1",
            "num.network.threads": "2",
            "num.io.threads": "2",
        }
        config = self.workdir / "server.properties"
        config.write_text("".join(f"{k}={v}\n" for k, v in properties.items()))
        (self.workdir / "log4j2.properties").write_text(_LOG4J2.format(log=self.log_file))
        return config

    def _wait_ready(self, timeout_s: float) -> None:
        """Ready = the broker answers a metadata request listing itself."""
        admin = self.admin(log_level=0)  # "connection refused" is expected until the broker listens
        deadline = time.monotonic() + timeout_s
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"Kafka broker exited with {self.process.returncode} during start; "
                                   f"log {self.log_file}:\n{processes.tail(self.log_file)}\n"
                                   f"{processes.tail(self.workdir / 'broker.out')}")
            try:
                if admin.list_topics(timeout=2).brokers:
                    return
            except KafkaException:
                pass
            if time.monotonic() > deadline:
                self.stop(keep_logs=True)
                raise TimeoutError(f"Kafka broker not ready after {timeout_s}s; log {self.log_file}:\n"
                                   f"{processes.tail(self.log_file)}")
            time.sleep(0.3)

    def state(self) -> dict:
        """What another process needs to find and stop this broker (see `reattach`)."""
        return {"workdir": str(self.workdir), "port": self.port, "pid": self.pid}

    @classmethod
    def reattach(cls, state: dict) -> "KafkaBroker":
        broker = cls(workdir=Path(state["workdir"]))
        broker.port, broker._pid = state["port"], state["pid"]
        return broker

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else self._pid

    def stop(self, keep_logs: bool = False) -> Path | None:
        """Stop the broker; returns the kept folder when `keep_logs`, else removes it."""
        if self.pid is not None:
            processes.stop_pids([self.pid])
        if self.process is not None:
            self.process.wait()
        self.process, self._pid = None, None
        if keep_logs:
            return self.workdir
        shutil.rmtree(self.workdir, ignore_errors=True)
        return None

    # -- client helpers ----------------------------------------------------------------------
    def _client_config(self, **config) -> dict:
        """Our helper clients log errors only; librdkafka's retries are expected noise here."""
        return {"bootstrap.servers": self.bootstrap, "log_level": 3, **config}

    def admin(self, **config) -> AdminClient:
        return AdminClient(self._client_config(**config))

    def create_topic(self, name: str, partitions: int = 1, config: dict[str, str] | None = None) -> str:
        admin = self.admin()  # must outlive the future, or the request is cancelled
        futures = admin.create_topics(
            [NewTopic(name, num_partitions=partitions, replication_factor=1, config=config or {})])
        futures[name].result(timeout=30)
        self._wait_for_leaders(admin, name, partitions)
        return name

    @staticmethod
    def _wait_for_leaders(admin: AdminClient, topic: str, partitions: int, timeout_s: float = 30.0) -> None:
        """A created topic answers offset requests only once every partition has a leader."""
        deadline = time.monotonic() + timeout_s
        while True:
            metadata = admin.list_topics(topic, timeout=10).topics.get(topic)
            if (metadata is not None and metadata.error is None and len(metadata.partitions) == partitions
                    and all(p.leader >= 0 and p.error is None for p in metadata.partitions.values())):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"topic {topic}: partitions without a leader after {timeout_s}s")
            time.sleep(0.05)

    def produce(self, topic: str, records: Iterable[Record | bytes | str], **config) -> int:
        """Produce in iteration order (per partition order is kept); returns the count sent.
        `config` is added to the producer's (librdkafka) settings, e.g. `message.max.bytes`."""
        producer = Producer(self._client_config(**{"enable.idempotence": True, "linger.ms": 5, **config}))
        errors: list[str] = []

        def on_delivery(err, msg):
            if err is not None:
                errors.append(f"{msg.topic()}: {err}")

        count = 0
        for item in records:
            record = item if isinstance(item, Record) else Record(value=_as_bytes(item))
            kwargs = {"value": _as_bytes(record.value), "key": _as_bytes(record.key),
                      "on_delivery": on_delivery}
            if record.partition is not None:
                kwargs["partition"] = record.partition
            if record.timestamp is not None:
                kwargs["timestamp"] = record.timestamp
            if record.headers:
                kwargs["headers"] = list(record.headers)
            while True:
                try:
                    producer.produce(topic, **kwargs)
                    break
                except BufferError:  # local queue full: let deliveries drain
                    producer.poll(0.1)
            count += 1
        remaining = producer.flush(60)
        if remaining or errors:
            raise ProduceFailed(f"producing to {topic}: {remaining} undelivered, errors: {errors[:5]}")
        return count

    @staticmethod
    def _watermarks(consumer: Consumer, partition: TopicPartition, timeout_s: float = 30.0) -> tuple[int, int]:
        """(low, high) offsets; retried while leadership of a new partition is still settling."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                return consumer.get_watermark_offsets(partition, timeout=10)
            except KafkaException as error:
                settling = error.args[0].retriable() or error.args[0].code() in _LEADERSHIP_SETTLING
                if not settling or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def end_offsets(self, topic: str) -> int:
        """Messages written to `topic` so far, committed or not: the sum of its partitions' end
        offsets (each partition read from offset 0)."""
        consumer = Consumer(self._client_config(**{"group.id": f"offsets-{uuid.uuid4()}"}))
        try:
            partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
            return sum(self._watermarks(consumer, TopicPartition(topic, p))[1] for p in partitions)
        finally:
            consumer.close()

    def consume(self, topic: str, timeout_s: float = 60.0,
                isolation_level: str = "read_committed") -> list[Record]:
        """Every message now in `topic`, ordered by partition, then offset.

        Reads each partition from its start up to the end offset seen when called, so the
        result is complete for a topic nobody writes to anymore (a finished job's sink).
        """
        consumer = Consumer(self._client_config(**{
            "group.id": f"reader-{uuid.uuid4()}", "enable.auto.commit": False,
            "isolation.level": isolation_level, "enable.partition.eof": True}))
        try:
            metadata = consumer.list_topics(topic, timeout=10).topics[topic]
            if metadata.error is not None:
                raise KafkaException(metadata.error)
            ends: dict[int, int] = {}
            starts = []
            for p in sorted(metadata.partitions):
                low, high = self._watermarks(consumer, TopicPartition(topic, p))
                if high > low:
                    ends[p] = high
                    starts.append(TopicPartition(topic, p, low))
            records: dict[int, list[Record]] = {p: [] for p in ends}
            if not starts:
                return []
            consumer.assign(starts)
            pending = set(ends)
            deadline = time.monotonic() + timeout_s
            while pending:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"reading {topic}: partitions {sorted(pending)} did not reach their "
                                       f"end offsets {ends} in {timeout_s}s (an open transaction?)")
                msg = consumer.poll(0.5)
                if msg is None:
                    continue
                p = msg.partition()
                if msg.error() is not None:
                    if msg.error().code() != KafkaError._PARTITION_EOF:
                        raise KafkaException(msg.error())
                elif msg.offset() < ends[p]:
                    records[p].append(Record(value=msg.value(), key=msg.key(), partition=p,
                                             timestamp=msg.timestamp()[1],
                                             headers=tuple(msg.headers() or ()), offset=msg.offset()))
                if p in pending and consumer.position([TopicPartition(topic, p)])[0].offset >= ends[p]:
                    pending.discard(p)
            return [r for p in sorted(records) for r in records[p]]
        finally:
            consumer.close()
