"""Fixtures shared by the reliability tests."""

from __future__ import annotations

import sys

import pytest

from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.sidecars import regions


@pytest.fixture(scope="module")
def regions_before() -> set[str]:
    """The accelerator region files in /dev/shm before the module's first job: leak checks count
    only files that appear after this."""
    return regions()


@pytest.fixture(scope="package")
def checkpointing_cluster(request, tmp_path_factory):
    """One TaskManager with three slots, checkpoints every second and restarts without end, shared
    by the stateful recovery tests (their jobs run one after another)."""
    config = {"accelerator.python.executable": sys.executable,
              "execution.checkpointing.interval": "1 s",
              "restart-strategy.type": "fixed-delay",
              "restart-strategy.fixed-delay.attempts": 1000,  # the soak's fault tests restart one job 50+ times
              "restart-strategy.fixed-delay.delay": "1 s",
              # A killed TaskManager is noticed by its failed heartbeat RPCs within two intervals.
              "heartbeat.interval": 1000,
              "heartbeat.timeout": 20000,
              "execution.checkpointing.dir": tmp_path_factory.mktemp("checkpoints").as_uri(),
              "metrics.fetcher.update-interval": "500 ms"}
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], slots_per_taskmanager=3, config=config).start()
    yield cluster
    cluster.stop(keep_logs=request.session.testsfailed > 0)


@pytest.fixture(scope="package")
def checkpointing_gateway(checkpointing_cluster):
    gateway = SqlGateway(checkpointing_cluster).start()
    yield gateway
    gateway.stop()
