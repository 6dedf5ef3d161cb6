"""The group window aggregate's keyed state, in memory: per key its accumulator namespaces (stock's
`window-aggs` state: a TUMBLE window, a HOP pane, a session) each in a slot of the accumulator
columns, and the windows whose event-time timer is registered (stock's `window-timers`, which the
JVM operator holds in Flink's timer service; the sidecar tracks them to answer each update with
only the registrations and deletions that change Flink's timers, and each watermark with every
window whose timer it fires)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from accelerator.groupwindow.spec import GroupWindowSpec
from accelerator.groupwindow.windows import Window
from accelerator.over.state import Sum0Accumulator
from accelerator.windowagg import accumulators

_INITIAL_CAPACITY = 1024
#: Estimated bytes of a key's entry and of one of its windows (dicts, tuples, the key's bytes).
_KEY_BYTES = 240
_WINDOW_BYTES = 160


def new_accumulator(aggregate, zero_based: bool, capacity: int = 0):
    """The accumulator column of one aggregate: a $SUM0 starts at 0, as the OVER aggregate's does."""
    return Sum0Accumulator(aggregate, capacity) if zero_based else accumulators.for_aggregate(aggregate, capacity)


@dataclass
class KeyWindows:
    key_group: int
    #: A number of its own among the state's keys (`GroupWindowState.slot_key`).
    code: int
    #: Accumulator namespace -> slot: TUMBLE windows, HOP panes, sessions in flight.
    namespaces: dict[Window, int] = field(default_factory=dict)
    #: Windows whose timer is registered (at window end - 1).
    timers: set[Window] = field(default_factory=set)


class GroupWindowState:
    def __init__(self, spec: GroupWindowSpec):
        self.spec = spec
        self.accumulators = [new_accumulator(a, zero) for a, zero in zip(spec.aggregates, spec.zero_based)]
        self.keys: dict[bytes, KeyWindows] = {}
        self._free: list[int] = []
        self._capacity = 0
        self.namespace_count = 0
        self.timer_count = 0
        self._codes = 0
        #: Per slot, the `code` of the key whose namespace it holds (-1: none) and the namespace's
        #: start, so HOP firing finds the panes of all its windows at once (`panes.window_panes`).
        #: Kept by `add_namespace` and `drop_namespace`, which TUMBLE and HOP namespaces go
        #: through; sessions that change in place are not kept up to date here.
        self.slot_key = np.zeros(0, dtype=np.int64)
        self.slot_start = np.zeros(0, dtype=np.int64)
        #: (key, window) of every registration by its timer's time (end - 1), and those times in a
        #: heap, for `take_due`; a deleted timer's entry stays until its time is taken and is
        #: skipped then.
        self._timers_at: dict[int, list[tuple[bytes, Window]]] = {}
        self._timer_times: list[int] = []
        self._timer_entries = 0
        self._grow(_INITIAL_CAPACITY)

    @property
    def entries(self) -> int:
        return self.namespace_count + self.timer_count

    def nbytes(self) -> int:
        return (len(self.keys) * _KEY_BYTES + self.entries * _WINDOW_BYTES + 8 * len(self._free)
                + self.slot_key.nbytes + self.slot_start.nbytes + _WINDOW_BYTES * self._timer_entries
                + sum(c.nbytes() for c in self.accumulators))

    def _grow(self, capacity: int) -> None:
        for column in self.accumulators:
            column.grow(capacity)
        extra = capacity - self._capacity
        self.slot_key = np.concatenate([self.slot_key, np.full(extra, -1, dtype=np.int64)])
        self.slot_start = np.concatenate([self.slot_start, np.zeros(extra, dtype=np.int64)])
        self._free.extend(range(capacity - 1, self._capacity - 1, -1))
        self._capacity = capacity

    def key(self, key: bytes, key_group: int) -> KeyWindows:
        entry = self.keys.get(key)
        if entry is None:
            entry = self.keys[key] = KeyWindows(key_group, self._codes)
            self._codes += 1
        return entry

    def new_slot(self, reset: bool = True) -> int:
        """A slot with fresh accumulators (`createAccumulators`), or, with `reset` False, a slot whose
        caller makes them fresh (`reset`) before anything reads or folds them."""
        if not self._free:
            self._grow(2 * self._capacity)
        slot = self._free.pop()
        if reset:
            self.reset(np.array([slot], dtype=np.int64))
        return slot

    def reset(self, slots: np.ndarray) -> None:
        for column in self.accumulators:
            column.reset(slots)

    def free(self, slots: list[int]) -> None:
        """Gives slots that hold no namespace any more to later namespaces."""
        self._free.extend(slots)

    def add_namespace(self, entry: KeyWindows, window: Window, slot: int | None = None, reset: bool = True) -> int:
        slot = self.new_slot(reset) if slot is None else slot
        entry.namespaces[window] = slot
        self.namespace_count += 1
        self.slot_key[slot] = entry.code
        self.slot_start[slot] = window[0]
        return slot

    def drop_namespace(self, entry: KeyWindows, window: Window, free: bool = True) -> int:
        slot = entry.namespaces.pop(window)
        self.namespace_count -= 1
        self.slot_key[slot] = -1
        if free:
            self._free.append(slot)
        return slot

    def register(self, key: bytes, entry: KeyWindows, window: Window) -> bool:
        """Registers the window's timer; False when it already was (Flink's timer service ignores it)."""
        if window in entry.timers:
            return False
        entry.timers.add(window)
        self.timer_count += 1
        self._timer_entries += 1
        bucket = self._timers_at.get(window[1] - 1)
        if bucket is None:
            self._timers_at[window[1] - 1] = [(key, window)]
            heapq.heappush(self._timer_times, window[1] - 1)
        else:
            bucket.append((key, window))
        return True

    def delete(self, entry: KeyWindows, window: Window) -> bool:
        """Deletes the window's timer; False when there was none."""
        if window not in entry.timers:
            return False
        entry.timers.discard(window)
        self.timer_count -= 1
        return True

    def take_due(self, watermark: int) -> tuple[list[tuple[bytes, Window]], list[KeyWindows]]:
        """Every registered timer at or before `watermark` (key, window), each once, in order of
        time, key and window, with its key's entry; they are no longer registered (as after
        `delete`)."""
        fired, entries = [], []
        times, keys = self._timer_times, self.keys
        while times and times[0] <= watermark:
            bucket = self._timers_at.pop(heapq.heappop(times))
            self._timer_entries -= len(bucket)
            for key, window in sorted(set(bucket)):
                entry = keys.get(key)
                if entry is not None and window in entry.timers:
                    entry.timers.discard(window)
                    fired.append((key, window))
                    entries.append(entry)
        self.timer_count -= len(fired)
        return fired, entries

    def forget_if_empty(self, key: bytes) -> None:
        entry = self.keys[key]
        if not entry.namespaces and not entry.timers:
            del self.keys[key]

    def merge(self, target: int, sources: list[int]) -> None:
        """Merges the accumulators of `sources`, in order, into `target`'s (`windowAggregator.merge`)."""
        at = np.array([target], dtype=np.int64)
        for column in self.accumulators:
            for source in sources:
                column.merge(at, column.state(np.array([source], dtype=np.int64)))
