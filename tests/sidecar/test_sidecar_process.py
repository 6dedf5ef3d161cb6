"""The real sidecar process, started by the real Java side (the shim jar) in a separate JVM, so the
tests can do what a TaskManager's death does: kill the JVM."""

import errno
import ipaddress
import os
import pwd
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from accelerator.sidecar.shm import alive
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
    assert alive(peer.sidecar_pid)
    peer.jvm.send_signal(signal.SIGKILL)
    peer.jvm.wait()
    _wait_until(lambda: not alive(peer.sidecar_pid), "the sidecar to exit after its JVM died")
    assert [r for r in peer.regions if os.path.exists(r)] == []


def test_closing_the_sidecar_from_java_leaves_nothing(peer):
    peer.jvm.stdin.close()
    assert peer.jvm.stdout.readline().strip() == "closed"
    assert peer.jvm.wait(timeout=30) == 0
    assert not alive(peer.sidecar_pid)
    assert [r for r in peer.regions if os.path.exists(r)] == []


def test_sidecar_that_cannot_reach_the_jvm_fails_fast_and_leaves_no_region(tmp_path):
    token = tmp_path / "token"
    token.write_text("secret\n")
    sidecar = subprocess.Popen([sys.executable, "-m", "accelerator.sidecar", "--port", "1", "--token-file",
                                str(token), "--jvm-pid", str(os.getpid())],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, stderr = sidecar.communicate(timeout=60)
    assert sidecar.returncode == 1
    assert "sidecar failed" in stderr and "Connection refused" in stderr
    # Only its own regions: the service tests' sidecars make and remove theirs meanwhile.
    assert _regions(sidecar.pid) == []


def test_empty_token_is_refused(tmp_path):
    result = subprocess.run([sys.executable, "-m", "accelerator", "sidecar", "--port", "1", "--token-file", "-",
                             "--jvm-pid", str(os.getpid())], input="\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "no auth token in stdin" in result.stderr


def test_live_regions_are_private_to_the_taskmanager_user(peer):
    """Both live regions (the JVM's and the sidecar's) are 0600 with 128 random bits in their
    names, and a process of another user (uid `nobody`) cannot open them, not even to read."""
    for region in peer.regions:
        info = os.stat(region)
        assert stat.S_IMODE(info.st_mode) == 0o600, f"{region}: mode {oct(info.st_mode)}"
        assert info.st_uid == os.getuid()
        assert re.fullmatch(r"flink-accelerator-(request|response)-\d+-[0-9a-f]{32}", os.path.basename(region))
    if os.getuid() != 0:
        pytest.skip("needs root to switch a child process to uid nobody")
    nobody = pwd.getpwnam("nobody")
    for region in peer.regions:
        assert _open_as(nobody, region) == errno.EACCES, f"uid nobody could open {region}"
    # The check itself can fail: the same child opens a region that is readable by others.
    readable = f"/dev/shm/flink-accelerator-test-{os.getpid()}-readable"
    Path(readable).write_bytes(b"x")
    try:
        os.chmod(readable, 0o644)
        assert _open_as(nobody, readable) == 0
    finally:
        os.unlink(readable)


def test_control_ports_listen_on_loopback_only(peer):
    """The JVM's py4j gateway and the sidecar's callback server accept connections on 127.0.0.1
    only: every listening socket of both processes is bound to loopback."""
    jvm, sidecar = _listening(peer.jvm.pid), _listening(peer.sidecar_pid)
    assert jvm and sidecar, f"no listening socket found: jvm {jvm}, sidecar {sidecar}"
    assert {address for address, _ in jvm + sidecar} == {"127.0.0.1"}, (jvm, sidecar)


def test_a_killed_sidecars_regions_are_removed_by_its_fork_server_and_the_jvm(peer):
    """SIGKILL gives the sidecar no chance to clean up: its fork server removes the sidecar's
    region when it reaps it, the JVM removes both files when it closes the sidecar (what the
    operator does when the task fails)."""
    response = [r for r in peer.regions if "-response-" in os.path.basename(r)]
    request = [r for r in peer.regions if "-request-" in os.path.basename(r)]
    assert len(response) == 1 and len(request) == 1, peer.regions
    os.kill(peer.sidecar_pid, signal.SIGKILL)
    _wait_until(lambda: not alive(peer.sidecar_pid), "the sidecar to die")
    _wait_until(lambda: not os.path.exists(response[0]), "the fork server to remove the killed sidecar's region")
    assert os.path.exists(request[0]), "the JVM's own region stays while the JVM runs"
    peer.jvm.stdin.close()
    out = peer.jvm.stdout.read()
    # Closing works although the sidecar is gone (its watcher thread may log the death, or not yet).
    assert peer.jvm.wait(timeout=60) == 0 and "closed" in out.splitlines(), out + peer.jvm.stderr.read()
    assert [r for r in peer.regions if os.path.exists(r)] == []


def _open_as(user: pwd.struct_passwd, path: str) -> int:
    """errno of opening `path` read-only in a child switched to `user` (0 = it could)."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            os.close(os.open(path, os.O_RDONLY))
        except OSError as e:
            code = e.errno or 255
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _listening(pid: int) -> list[tuple[str, int]]:
    """(address, port) of every TCP socket `pid` listens on, from /proc/net/tcp and tcp6."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and inode in inodes:  # 0A = LISTEN
                hex_address, hex_port = local.split(":")
                found.append((_address(hex_address), int(hex_port, 16)))
    return found


def _address(hex_address: str) -> str:
    raw = bytes.fromhex(hex_address)
    if len(raw) == 16:  # tcp6: four little-endian 32-bit words
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
        mapped = ipaddress.IPv6Address(raw)
        return str(mapped.ipv4_mapped or mapped)
    return str(ipaddress.IPv4Address(raw[::-1]))


def _regions(creator_pid: int) -> list[str]:
    return [os.path.join("/dev/shm", n) for n in os.listdir("/dev/shm")
            if n.startswith("flink-accelerator-") and f"-{creator_pid}-" in n]


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
