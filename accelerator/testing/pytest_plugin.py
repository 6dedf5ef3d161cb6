"""Pytest fixtures for real services: one Kafka broker and one Flink cluster per test session.

Registered through the `pytest11` entry point, so any test in this venv can ask for them. When
a test of the session failed, the services' folders (logs, broker data) are kept and listed at
the end of the run instead of being removed.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from accelerator.testing.flink import FlinkCluster
from accelerator.testing.kafka import KafkaBroker

_kept: list[tuple[str, Path]] = []
_topic_ids = itertools.count(1)


def _stop(request: pytest.FixtureRequest, service, what: str) -> None:
    kept = service.stop(keep_logs=request.session.testsfailed > 0)
    if kept is not None:
        _kept.append((what, kept))


@pytest.fixture(scope="session")
def kafka_broker(request: pytest.FixtureRequest) -> KafkaBroker:
    broker = KafkaBroker().start()
    yield broker
    _stop(request, broker, "Kafka broker")


@pytest.fixture(scope="session")
def flink_cluster(request: pytest.FixtureRequest) -> FlinkCluster:
    """The stock distribution, one TaskManager, no accelerator jar."""
    cluster = FlinkCluster().start()
    yield cluster
    _stop(request, cluster, "Flink cluster")


@pytest.fixture
def new_topic(kafka_broker: KafkaBroker):
    """`new_topic("bids", partitions=2)` creates a topic no other test uses and returns its name;
    `config` is the topic's (e.g. `max.message.bytes`)."""
    def create(prefix: str = "topic", partitions: int = 1, config: dict[str, str] | None = None) -> str:
        return kafka_broker.create_topic(f"{prefix}-{next(_topic_ids)}", partitions, config)
    return create


def pytest_terminal_summary(terminalreporter) -> None:
    for what, path in _kept:
        terminalreporter.write_line(f"{what}: logs kept in {path}")
