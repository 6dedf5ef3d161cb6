"""Finding the sidecars a TaskManager started and the shared-memory files they use, from /proc and
/dev/shm only, so fault tests can kill them and check that nothing outlives a job or a JVM.

A TaskManager runs one fork server at a time (`python -m accelerator.sidecar.fork_server`) and the
fork server forks the sidecars: a sidecar is a child of a fork server, with the same command line.
While a server is retired (a job named another interpreter) the TaskManager starts sidecars itself:
such a sidecar is a child of the JVM, running `python -m accelerator.sidecar`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from accelerator.sidecar.shm import REGION_PREFIX, SHM_DIRECTORY, creator

FORK_SERVER_ARGS = "-m\0accelerator.sidecar.fork_server"
SIDECAR_ARGS = "-m\0accelerator.sidecar\0"
SHM = Path(SHM_DIRECTORY)


def _processes() -> dict[int, tuple[int, str, bool, bool]]:
    """pid -> (parent pid, state letter, whether its command line is the fork server's, whether it
    is a directly started sidecar's)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        found[int(entry.name)] = (int(fields[1]), fields[0], FORK_SERVER_ARGS in cmdline, SIDECAR_ARGS in cmdline)
    return found


def fork_server_pids(parents: list[int] | None = None) -> list[int]:
    """Fork servers (not zombies) whose parent is one of `parents`; every fork server when None."""
    return sorted(_fork_servers(_processes(), parents))


def sidecar_pids(parents: list[int] | None = None) -> list[int]:
    """Sidecar processes (not zombies) of one of `parents` (TaskManager JVMs), forked or started
    directly; every sidecar when None."""
    processes = _processes()
    servers = _fork_servers(processes, parents)
    return sorted(pid for pid, (ppid, state, forks, direct) in processes.items()
                  if state != "Z" and (forks and ppid in servers or direct and (parents is None or ppid in parents)))


def _fork_servers(processes: dict[int, tuple[int, str, bool, bool]], parents: list[int] | None) -> set[int]:
    return {pid for pid, (ppid, state, forks, _) in processes.items()
            if forks and state != "Z" and not processes.get(ppid, (0, "", False, False))[2]
            and (parents is None or ppid in parents)}


def regions() -> set[str]:
    """Names of every accelerator region file in /dev/shm."""
    return {p.name for p in SHM.glob(REGION_PREFIX + "*")}


def regions_of(pids: list[int]) -> set[str]:
    """Region files created by any of `pids`."""
    return {r for r in regions() if creator(r) in set(pids)}


def orphaned_regions(existing_before: set[str] = frozenset(), settle_s: float = 2.0) -> set[str]:
    """Region files whose creator no longer runs and that are still there `settle_s` later: a leak
    whoever made it. Files in `existing_before` (taken before the test started) are left out:
    /dev/shm is shared by every process on the machine, and a file an earlier, killed run left says
    nothing about the code under test. A file that goes within `settle_s` is another test's at work
    (the shim's `UntrustedResponseRegionTest` offers region-named files of a pid no process has while
    the services tests run beside it in CI), not a leak."""
    def dead() -> set[str]:
        return {r for r in regions() - existing_before
                if creator(r) is not None and not os.path.exists(f"/proc/{creator(r)}")}
    first = dead()
    if not first:
        return first
    time.sleep(settle_s)
    return first & dead()
