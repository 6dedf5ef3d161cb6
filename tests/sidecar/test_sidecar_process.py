"""The real sidecar process, started by the real Java side (the shim jar) in a separate JVM, so the
tests can do what a TaskManager's death does: kill the JVM."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from accelerator.testing import locations

PEER = Path(__file__).with_name("SidecarPeer.java")


@pytest.fixture(scope="module")
def classpath() -> str:
    shim = locations.require(locations.shim_jar(), "shim jar")
    lib = locations.require(locations.flink_home() / "lib", "Flink distribution")
    return os.pathsep.join([str(shim), *sorted(str(p) for p in lib.glob("*.jar"))])


class Peer:
    """The JVM running SidecarPeer.java, once its sidecar has answered one batch."""

    def __init__(self, classpath: str):
        self.jvm = subprocess.Popen(
            ["java", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", classpath, str(PEER), sys.executable],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = _read_line(self.jvm, timeout=120)
        assert line.startswith("ready "), f"peer said {line!r}; stderr: {self.jvm.stderr.read()}"
        _, pid, rows = line.split()
        assert rows == "3"
        self.sidecar_pid = int(pid)
        self.regions = _regions(self.jvm.pid) + _regions(self.sidecar_pid)
        assert len(self.regions) == 2, self.regions

    def stop(self):
        if self.jvm.poll() is None:
            self.jvm.kill()
        self.jvm.wait()


@pytest.fixture
def peer(classpath):
    started = Peer(classpath)
    yield started
    started.stop()


def test_sidecar_exits_and_removes_both_regions_when_the_jvm_is_killed(peer):
    assert _running(peer.sidecar_pid)
    peer.jvm.send_signal(signal.SIGKILL)
    peer.jvm.wait()
    _wait_until(lambda: not _running(peer.sidecar_pid), "the sidecar to exit after its JVM died")
    assert [r for r in peer.regions if os.path.exists(r)] == []


def test_closing_the_sidecar_from_java_leaves_nothing(peer):
    peer.jvm.stdin.close()
    assert peer.jvm.stdout.readline().strip() == "closed"
    assert peer.jvm.wait(timeout=30) == 0
    assert not _running(peer.sidecar_pid)
    assert [r for r in peer.regions if os.path.exists(r)] == []


def test_sidecar_that_cannot_reach_the_jvm_fails_fast_and_leaves_no_region(tmp_path):
    token = tmp_path / "token"
    token.write_text("secret\n")
    before = set(os.listdir("/dev/shm"))
    result = subprocess.run([sys.executable, "-m", "accelerator.sidecar", "--port", "1", "--token-file", str(token),
                             "--jvm-pid", str(os.getpid())], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "sidecar failed" in result.stderr and "Connection refused" in result.stderr
    assert set(os.listdir("/dev/shm")) - before == set()


def test_empty_token_is_refused(tmp_path):
    result = subprocess.run([sys.executable, "-m", "accelerator", "sidecar", "--port", "1", "--token-file", "-",
                             "--jvm-pid", str(os.getpid())], input="\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "no auth token in stdin" in result.stderr


def _regions(creator_pid: int) -> list[str]:
    return [os.path.join("/dev/shm", n) for n in os.listdir("/dev/shm")
            if n.startswith("flink-accelerator-") and f"-{creator_pid}-" in n]


def _running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie waiting for a reaper."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _wait_until(condition, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _read_line(process: subprocess.Popen, timeout: float) -> str:
    line = []
    reader = threading.Thread(target=lambda: line.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return line[0].strip() if line else ""
