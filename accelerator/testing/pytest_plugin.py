"""Pytest fixtures for real services: one Kafka broker, one stock Flink cluster and one Flink cluster
with the accelerator's jar (and a SQL gateway on it) per test session.

Registered through the `pytest11` entry point, so any test in this venv can ask for them. When
a test of the session failed, the services' folders (logs, broker data) are kept and listed at
the end of the run instead of being removed.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
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


@pytest.fixture(scope="session")
def accelerated_cluster(request: pytest.FixtureRequest) -> FlinkCluster:
    """The stock distribution with the accelerator's jar in lib/ and `accelerator.enabled` unset
    (off): a job runs accelerated with `SET 'accelerator.enabled' = 'true'`. Its sidecars run on
    this interpreter; REST metrics are fresh to the half second. One TaskManager, no restarts.
    Shared by the modules that need no other setting (a module that does starts its own)."""
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()],
                           config={"accelerator.python.executable": sys.executable,
                                   "metrics.fetcher.update-interval": "500 ms"}).start()
    yield cluster
    _stop(request, cluster, "Flink cluster with the accelerator")


@pytest.fixture(scope="session")
def accelerated_gateway(accelerated_cluster: FlinkCluster) -> SqlGateway:
    """A SQL gateway on `accelerated_cluster`: scripts in milliseconds, no client JVM per job."""
    gateway = SqlGateway(accelerated_cluster).start()
    yield gateway
    gateway.stop()


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
