"""CPU time and memory of process trees, read from /proc: a Flink JVM and whatever it started
(the accelerator's sidecars).

A tree's CPU is the root's user+system time, plus that of its children it has reaped (cutime,
cstime: a sidecar that ended during the job), plus the live descendants' own. Differences of two
readings give the CPU a job cost, whichever sidecars came and went in between.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Stat:
    pid: int
    ppid: int
    cpu_ticks: int  # utime + stime + cutime + cstime
    own_ticks: int  # utime + stime
    rss_bytes: int


def read_stat(pid: int) -> Stat | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return Stat(pid, int(fields[1]), utime + stime + cutime + cstime, utime + stime, int(fields[21]) * PAGE)


def _all_stats() -> dict[int, Stat]:
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read_stat(int(entry))
            if stat is not None:
                stats[stat.pid] = stat
    return stats


def _tree(root: int, stats: dict[int, Stat]) -> list[Stat]:
    children: dict[int, list[int]] = {}
    for s in stats.values():
        children.setdefault(s.ppid, []).append(s.pid)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            out.append(stats[pid])
        todo.extend(children.get(pid, ()))
    return out


@dataclass(frozen=True)
class Reading:
    """CPU seconds per named group of process trees at one moment."""

    at: float
    cpu_s: dict[str, float]
    children_cpu_s: dict[str, float]  # of cpu_s: everything but the roots' own threads (sidecars)
    rss_bytes: dict[str, int]
    processes: dict[str, int]


def read(groups: dict[str, list[int]]) -> Reading:
    stats = _all_stats()
    cpu, children, rss, count = {}, {}, {}, {}
    for name, roots in groups.items():
        members = [s for root in roots for s in _tree(root, stats)]
        cpu[name] = sum(s.cpu_ticks for s in members) / TICKS
        children[name] = cpu[name] - sum(s.own_ticks for s in members if s.pid in roots) / TICKS
        rss[name] = sum(s.rss_bytes for s in members)
        count[name] = len(members)
    return Reading(time.time(), cpu, children, rss, count)


@dataclass
class Sampler:
    """Reads the groups every `interval_s` on a thread; keeps the first and last readings and
    the peak resident memory (and process count) of each group in between."""

    groups: dict[str, list[int]]
    interval_s: float = 0.25
    first: Reading | None = None
    last: Reading | None = None
    peak_rss_bytes: dict[str, int] = field(default_factory=dict)
    peak_processes: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-sampler", daemon=True)

    def _take(self) -> Reading:
        reading = read(self.groups)
        for name, value in reading.rss_bytes.items():
            self.peak_rss_bytes[name] = max(self.peak_rss_bytes.get(name, 0), value)
            self.peak_processes[name] = max(self.peak_processes.get(name, 0), reading.processes[name])
        return reading

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._take()

    def __enter__(self) -> "Sampler":
        self.first = self._take()
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()
        self.last = self._take()

    def cpu_seconds(self) -> dict[str, float]:
        return {name: round(self.last.cpu_s[name] - self.first.cpu_s[name], 3) for name in self.groups}

    def children_cpu_seconds(self) -> dict[str, float]:
        return {name: round(self.last.children_cpu_s[name] - self.first.children_cpu_s[name], 3)
                for name in self.groups}
