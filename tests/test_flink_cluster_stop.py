"""`FlinkCluster.stop` stops every daemon of the cluster even when `stop-cluster.sh` hangs (on a
loaded machine it outlived its timeout and left a JobManager JVM running for good)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from accelerator.sidecar.shm import alive
from accelerator.testing.flink import FlinkCluster


def test_a_hanging_stop_script_still_leaves_no_daemon(tmp_path):
    cluster = FlinkCluster(flink_home=tmp_path / "dist", workdir=tmp_path / "work")
    (cluster.home / "bin").mkdir(parents=True)
    script = cluster.home / "bin" / "stop-cluster.sh"
    script.write_text("#!/bin/sh\nexec sleep 600\n")
    script.chmod(0o755)
    # A daemon as start-cluster.sh leaves one: detached (not this process's child), its command
    # line naming the cluster's home.
    started = subprocess.run(["sh", "-c", f"'{sys.executable}' -c 'import time; time.sleep(60)' '{cluster.home}/daemon'"
                              " >/dev/null 2>&1 & echo $!"], capture_output=True, text=True, check=True)
    daemon = int(started.stdout)
    try:
        deadline = time.monotonic() + 10
        while daemon not in cluster.daemon_pids():
            assert time.monotonic() < deadline, "the stand-in daemon did not start"
            time.sleep(0.05)
        cluster.started, cluster.stop_script_timeout_s = True, 1.0
        cluster.stop()
        deadline = time.monotonic() + 10
        while alive(daemon):
            assert time.monotonic() < deadline, "the daemon outlived stop()"
            time.sleep(0.05)
        assert not cluster.workdir.exists()
    finally:
        if alive(daemon):
            os.kill(daemon, signal.SIGKILL)
