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


def stop_pid(pid: int, grace_s: float = 20.0) -> None:
    """SIGTERM, then SIGKILL after `grace_s`; returns once the process is gone."""
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            _reap(pid)
            if not alive(pid):
                return
            time.sleep(0.1)
    raise TimeoutError(f"process {pid} survived SIGKILL")


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
