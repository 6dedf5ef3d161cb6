"""Starting and stopping the service JVMs we own: free ports, child processes, clean stops."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from accelerator.sidecar.shm import alive  # noqa: F401 - also what callers of this module use

_PR_SET_PDEATHSIG = 1
_handed_out: set[int] = set()


def free_port() -> int:
    """A loopback port nobody listens on now, never the same one twice in this process."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port


def _die_with_parent() -> None:
    """Runs in the child before exec: the kernel kills it when the Python that started it dies."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def spawn(cmd: list[str], log: Path, *, cwd: Path, env: dict[str, str] | None = None,
          die_with_parent: bool = True) -> subprocess.Popen:
    """Start `cmd` with stdout and stderr appended to `log`, in its own process group."""
    with open(log, "ab") as out:
        return subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=_die_with_parent if die_with_parent else None)


def stop_pids(pids: list[int], grace_s: float = 20.0) -> None:
    """SIGTERM to every one of `pids` at once, then SIGKILL to those still running after `grace_s`;
    returns once all are gone. Signalled together, a JobManager, its TaskManagers and a gateway
    shut down side by side in about a second; one after another (as Flink's stop scripts do, each
    also starting a JVM to read the config) they took 16-20 s."""
    left = set(pids)
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        for pid in list(left):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                left.discard(pid)
        deadline = time.monotonic() + wait
        while left and time.monotonic() < deadline:
            for pid in list(left):
                _reap(pid)
                if not alive(pid):
                    left.discard(pid)
            time.sleep(0.1)
        if not left:
            return
    raise TimeoutError(f"processes {sorted(left)} survived SIGKILL")


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def tail(path: Path, lines: int = 40) -> str:
    """The end of a log file, for error messages; empty if there is no such file."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return ""
