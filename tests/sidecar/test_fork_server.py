"""The sidecar fork server as the JVM drives it (SidecarForkServer.java): its protocol, the exit
codes and output it relays, signals, and its end. The Java side's tests run whole sidecars through
it; here sidecars are pointed at sockets that never answer, to hold them in a known state."""

import json
import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from accelerator.sidecar import shm

TIMEOUT_S = 60


class Server:
    def __init__(self):
        # Unbuffered: select() must see every line the server wrote, not just those not yet in a buffer.
        self.process = subprocess.Popen([sys.executable, "-m", "accelerator.sidecar.fork_server"], bufsize=0,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.log: list[str] = []
        self.ready = self.next_event("ready")

    def send(self, request: dict) -> None:
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()

    def next_event(self, kind: str) -> dict:
        """The next event of `kind`; the events before it are kept in `events`."""
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.process.stdout], [], [], deadline - time.monotonic())
            if not readable:
                break
            line = self.process.stdout.readline().decode()
            assert line, f"the fork server exited; its output: {self.log}"
            self.log.append(line)
            if line.startswith("{") and kind in json.loads(line):
                return json.loads(line)
        raise AssertionError(f"no {kind!r} event within {TIMEOUT_S} s; output: {self.log}")

    def fork(self, port: int, request_id: int = 1) -> int:
        self.send({"fork": request_id, "args": ["--port", str(port), "--token-file", "-",
                                                "--jvm-pid", str(os.getpid())], "token": "secret"})
        return self.next_event("forked")["pid"]

    def output_of(self, pid: int) -> list[str]:
        return [event["line"] for event in map(json.loads, filter(lambda l: l.startswith("{"), self.log))
                if event.get("output") == pid]

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def server():
    started = Server()
    yield started
    started.stop()


@pytest.fixture
def silent_jvm():
    """A listening socket that accepts and never answers: a sidecar connecting to it waits."""
    with socket.create_server(("127.0.0.1", 0)) as listening:
        yield listening.getsockname()[1]


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


def test_ready_names_the_server_and_the_package_version(server):
    import accelerator

    assert server.ready == {"ready": server.process.pid, "version": accelerator.__version__}


def test_a_sidecar_that_fails_has_its_output_relayed_before_its_exit_code(server):
    pid = server.fork(_free_port())  # nobody listens: the sidecar cannot reach the JVM
    exited = server.next_event("exited")
    assert exited == {"exited": pid, "code": 1}
    output = "\n".join(server.output_of(pid))
    assert "sidecar failed" in output and "ConnectionRefusedError" in output, output


def test_a_signal_reaches_a_running_sidecar_and_its_exit_says_which(server, silent_jvm):
    pid = server.fork(silent_jvm)
    time.sleep(0.5)
    assert shm.alive(pid)
    server.send({"signal": pid, "signum": signal.SIGKILL})
    assert server.next_event("exited") == {"exited": pid, "code": 128 + signal.SIGKILL}
    assert not shm.alive(pid)


def test_sidecars_are_children_of_the_server(server, silent_jvm):
    pid = server.fork(silent_jvm)
    with open(f"/proc/{pid}/stat") as stat:
        assert int(stat.read().rsplit(")", 1)[1].split()[1]) == server.process.pid


def test_arguments_the_sidecar_does_not_take_fail_the_request_not_the_server(server, silent_jvm):
    server.send({"fork": 7, "args": ["--no-such-option"], "token": "secret"})
    failed = server.next_event("failed")
    assert failed["failed"] == 7 and "bad sidecar arguments" in failed["error"], failed
    assert server.fork(silent_jvm, request_id=8) > 0


def test_when_its_stdin_ends_the_server_stops_its_sidecars_and_exits(server, silent_jvm):
    pid = server.fork(silent_jvm)
    server.process.stdin.close()
    assert server.process.wait(timeout=TIMEOUT_S) == 0
    assert _gone(pid, TIMEOUT_S)


def _region_of(pid: int, role: str = "response") -> Path:
    """A file named as `pid`'s region (what a sidecar or JVM creates before it is killed)."""
    path = Path(shm.SHM_DIRECTORY) / f"{shm.REGION_PREFIX}{role}-{pid}-{secrets.token_hex(16)}"
    path.write_bytes(b"left behind")
    return path


def _gone(pid: int, timeout_s: float = 15) -> bool:
    """Whether `pid` stops running within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while shm.alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not shm.alive(pid)


def test_the_region_of_a_killed_sidecar_is_removed_by_its_server(server, silent_jvm):
    pid = server.fork(silent_jvm)
    region = _region_of(pid)
    server.send({"signal": pid, "signum": signal.SIGKILL})
    assert server.next_event("exited") == {"exited": pid, "code": 128 + signal.SIGKILL}
    assert not region.exists(), "a killed sidecar cannot remove its region; its server must"


def test_a_stopped_sidecar_and_its_region_do_not_outlive_the_jvm(server, silent_jvm):
    pid = server.fork(silent_jvm)
    region = _region_of(pid)
    os.kill(pid, signal.SIGSTOP)  # SIGTERM stays pending on a stopped process
    server.process.stdin.close()  # the JVM is gone
    assert server.process.wait(timeout=TIMEOUT_S) == 0
    assert _gone(pid), "the stopped sidecar outlived its server"
    assert not region.exists()


def test_a_broken_pipe_to_the_jvm_still_stops_the_sidecars_and_removes_their_regions(server, silent_jvm):
    pid = server.fork(silent_jvm)
    region = _region_of(pid)
    os.kill(pid, signal.SIGSTOP)
    server.process.stdout.close()  # the JVM died: its end of the event pipe is closed
    server.send({"fork": 2, "args": ["--no-such-option"], "token": "secret"})  # answering it breaks the pipe
    assert server.process.wait(timeout=TIMEOUT_S) == 0
    assert _gone(pid), "the stopped sidecar outlived its server"
    assert not region.exists()


def test_a_starting_server_removes_the_regions_of_processes_that_are_gone():
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
    orphan = _region_of(int(finished.stdout), role="request")
    ours = _region_of(os.getpid(), role="request")  # its creator runs: it stays
    try:
        started = Server()
        try:
            assert not orphan.exists(), "a region of a process that is gone survived the next server's start"
            assert ours.exists()
        finally:
            started.stop()
    finally:
        ours.unlink()
        orphan.unlink(missing_ok=True)
