"""`FlinkCluster.stop` signals every daemon of the cluster at once and leaves none running, also
one that ignores SIGTERM (Flink's stop scripts signal one daemon after another, each after seconds
of config parsing and waiting: 16-20 s for a JobManager and a TaskManager, 9 s for a gateway)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from accelerator.sidecar.shm import alive
from accelerator.testing.flink import FlinkCluster

# A stand-in daemon: on SIGTERM it marks `<name>.term` and exits only once every other daemon of
# the cluster has been signalled too (it waits for their marks); `ignore` ignores SIGTERM.
DAEMON = """
import signal, sys, time
from pathlib import Path
marks, name, others, mode = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(","), sys.argv[4]
def on_term(*_):
    (marks / (name + ".term")).touch()
    while not all((marks / (other + ".term")).exists() for other in others):
        time.sleep(0.05)
    (marks / (name + ".exited")).touch()
    sys.exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN if mode == "ignore" else on_term)
(marks / (name + ".ready")).touch()
time.sleep(600)
"""


def start_daemon(cluster: FlinkCluster, marks: Path, name: str, others: list[str], mode: str) -> int:
    """A detached process (not this one's child, as start-cluster.sh leaves a daemon) whose command
    line names the cluster's home."""
    started = subprocess.run(
        ["sh", "-c", f"'{sys.executable}' -c '{DAEMON}' '{marks}' {name} {','.join(others) or '-'} {mode} "
                     f"'{cluster.home}/daemon' >/dev/null 2>&1 & echo $!"],
        capture_output=True, text=True, check=True)
    return int(started.stdout)


def test_every_daemon_gets_sigterm_at_once_and_one_that_ignores_it_is_killed(tmp_path):
    cluster = FlinkCluster(flink_home=tmp_path / "dist", workdir=tmp_path / "work")
    cluster.home.mkdir(parents=True)
    marks = tmp_path / "marks"
    marks.mkdir()
    polite = ["jobmanager", "taskmanager", "gateway"]
    pids = [start_daemon(cluster, marks, name, [o for o in polite if o != name], "exit") for name in polite]
    pids.append(start_daemon(cluster, marks, "stubborn", [], "ignore"))
    try:
        deadline = time.monotonic() + 30
        while len(list(marks.glob("*.ready"))) < 4:
            assert time.monotonic() < deadline, "the stand-in daemons did not start"
            time.sleep(0.05)
        cluster.started, cluster.stop_grace_s = True, 5.0
        cluster.stop()
        assert [pid for pid in pids if alive(pid)] == []
        # Each polite daemon exited by itself, which it does only once all of them had SIGTERM:
        # one signalled after another's exit would have waited for it until SIGKILL.
        assert sorted(p.name for p in marks.glob("*.exited")) == sorted(f"{n}.exited" for n in polite)
        assert not cluster.workdir.exists()
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
