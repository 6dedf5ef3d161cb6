"""The sidecar notices its JVM is gone (the kill -9 case end to end is in test_sidecar_process.py)."""

import subprocess
import sys
import time

from accelerator.sidecar.parent import ParentWatch


def test_watch_reports_the_jvm_pid_disappearing():
    jvm = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    watch = ParentWatch(jvm.pid)
    assert watch.gone() is None
    jvm.kill()
    jvm.wait()
    assert watch.gone() == f"JVM {jvm.pid} exited"


def test_parent_death_signal_kills_an_orphan():
    """A parent starts a child that asks for the signal, then exits: the child must die with it."""
    child = ("from accelerator.sidecar.parent import signal_on_parent_death; import time;"
             " assert signal_on_parent_death(); print('armed', flush=True); time.sleep(60)")
    parent = ("import subprocess, sys; c = subprocess.Popen([sys.executable, '-c', sys.argv[1]],"
              " stdout=subprocess.PIPE, text=True); print(c.pid, c.stdout.readline().strip(), flush=True)")
    out = subprocess.run([sys.executable, "-c", parent, child], capture_output=True, text=True, timeout=60).stdout
    pid, state = out.split()
    assert state == "armed"
    for _ in range(200):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except FileNotFoundError:
            return
        time.sleep(0.05)
    raise AssertionError(f"orphan {pid} still alive 10 s after its parent exited")

