"""Ties the sidecar's life to the JVM that started it, so a dead TaskManager leaves no sidecar.

Two mechanisms, because neither covers every case alone: the kernel's parent-death signal
(immediate, but tied to the thread that started us and to our direct parent, which may be a
wrapper script) and a watch that polls for the JVM's pid and for a change of parent.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


def signal_on_parent_death(signum: int = signal.SIGTERM) -> bool:
    """Asks Linux to send `signum` when our parent dies; False where that is not available."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):
        log.warning("cannot ask for a parent-death signal; relying on polling the JVM's pid")
        return False


class ParentWatch:
    """Answers whether the JVM (`jvm_pid`) or our direct parent has gone away."""

    def __init__(self, jvm_pid: int):
        self._jvm_pid = jvm_pid
        self._parent_pid = os.getppid()

    def gone(self) -> str | None:
        """Why we should exit, or None while the JVM is there."""
        if os.getppid() != self._parent_pid:
            return f"parent process {self._parent_pid} exited"
        try:
            os.kill(self._jvm_pid, 0)
        except ProcessLookupError:
            return f"JVM {self._jvm_pid} exited"
        except PermissionError:
            return f"pid {self._jvm_pid} now belongs to another user's process; the JVM exited"
        return None
