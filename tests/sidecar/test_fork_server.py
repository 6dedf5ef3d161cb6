"""The sidecar fork server as the JVM drives it (SidecarForkServer.java): its protocol, the exit
codes and output it relays, signals, and its end. The Java side's tests run whole sidecars through
it; here sidecars are pointed at sockets that never answer, to hold them in a known state."""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

import pytest

TIMEOUT_S = 60


class Server:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "accelerator.sidecar.fork_server"],
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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


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
    assert _alive(pid)
    server.send({"signal": pid, "signum": signal.SIGKILL})
    assert server.next_event("exited") == {"exited": pid, "code": 128 + signal.SIGKILL}
    assert not _alive(pid)


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
    deadline = time.monotonic() + TIMEOUT_S
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)
