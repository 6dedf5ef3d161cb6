"""Finding the sidecars a TaskManager started and the shared-memory files they use, from /proc and
/dev/shm only, so fault tests can kill them and check that nothing outlives a job or a JVM."""

from __future__ import annotations

import os
from pathlib import Path

SIDECAR_ARGS = "-m\0accelerator.sidecar"
SHM = Path("/dev/shm")
REGION_PREFIX = "flink-accelerator-"


def sidecar_pids(parents: list[int] | None = None) -> list[int]:
    """Sidecar processes (not zombies) whose parent is one of `parents`; every sidecar when None."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        state, ppid = fields[0], int(fields[1])
        if SIDECAR_ARGS in cmdline and state != "Z" and (parents is None or ppid in parents):
            found.append(int(entry.name))
    return sorted(found)


def regions() -> set[str]:
    """Names of every accelerator region file in /dev/shm."""
    return {p.name for p in SHM.glob(REGION_PREFIX + "*")}


def creator(region: str) -> int | None:
    """The pid in a region's name (`flink-accelerator-<role>-<pid>-<hex>`)."""
    try:
        return int(region.rsplit("-", 2)[1])
    except (IndexError, ValueError):
        return None


def regions_of(pids: list[int]) -> set[str]:
    """Region files created by any of `pids`."""
    return {r for r in regions() if creator(r) in set(pids)}


def orphaned_regions(existing_before: set[str] = frozenset()) -> set[str]:
    """Region files whose creator no longer runs: a leak whoever made it. Files in `existing_before`
    (taken before the test started) are left out: /dev/shm is shared by every process on the
    machine, and a file an earlier, killed run left says nothing about the code under test."""
    return {r for r in regions() - existing_before
            if creator(r) is not None and not os.path.exists(f"/proc/{creator(r)}")}


def running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"
