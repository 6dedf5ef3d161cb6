"""A TaskManager JVM killed with SIGKILL leaves nothing behind: its sidecar fork server exits (its
stdin ends), its sidecars exit (parent-death signal, and their watch on the JVM's pid) and remove
both shared-memory regions, the JVM's as well as their own, since the JVM can no longer; a sidecar
that cannot (stopped) is killed by its fork server, which removes its files and the JVM's."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import pytest

from accelerator.sidecar.shm import alive
from accelerator.testing import locations
from accelerator.testing.faults import taskmanager_pids
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.sidecars import fork_server_pids, regions, regions_of, sidecar_pids

pytestmark = pytest.mark.services

JOB = """
SET 'accelerator.enabled' = 'true';
CREATE TABLE src (id BIGINT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
CREATE TABLE out_src (id BIGINT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json');
INSERT INTO out_src SELECT id, UPPER(name) FROM src WHERE id > 0;
"""


@pytest.mark.parametrize("stopped", [False, True], ids=["running", "one-sidecar-stopped"])
def test_no_sidecar_and_no_region_survives_a_killed_taskmanager(kafka_broker, new_topic, stopped):
    """With `stopped`, one sidecar is SIGSTOPped first: it can neither act on its parent's death
    nor remove its files, so its fork server must kill it and remove them (and the JVM's)."""
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], slots_per_taskmanager=2,
                           config={"accelerator.python.executable": sys.executable,
                                   "parallelism.default": 2}).start()
    failed = True
    try:
        source, sink = new_topic("tm-death-src", partitions=2), new_topic("tm-death-out")
        kafka_broker.produce(source, [json.dumps({"id": i, "name": f"n{i}"}) for i in range(1, 500)])
        (job_id,) = cluster.submit_sql(JOB, {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
        (taskmanager,) = taskmanager_pids(cluster)
        deadline = time.monotonic() + 120
        # Both sidecars attached: one request and one response region each.
        while (len(sidecars := sidecar_pids([taskmanager])) < 2
               or len(files := regions_of([taskmanager, *sidecars])) < 4):
            assert time.monotonic() < deadline, "the job's two sidecars did not start"
            time.sleep(0.3)
        assert len(sidecars) == 2 and len(files) == 4, (sidecars, files)
        servers = fork_server_pids([taskmanager])
        assert len(servers) == 1, servers

        if stopped:
            os.kill(sidecars[0], signal.SIGSTOP)
        os.kill(taskmanager, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while any(alive(p) for p in sidecars + servers) or files & regions():
            assert time.monotonic() < deadline, (f"15 s after the TaskManager died: sidecars and fork server"
                                                 f" running {[p for p in sidecars + servers if alive(p)]},"
                                                 f" files {files & regions()}")
            time.sleep(0.05)
        failed = False
        cluster.rest(f"/jobs/{job_id}")  # the JobManager is still there to be stopped
    finally:
        cluster.stop(keep_logs=failed)
