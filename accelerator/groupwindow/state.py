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
        #: (end - 1, key, window) of every registration, for `due`; a deleted or fired timer's
        #: entry stays until popped and is skipped then.
        self._timer_heap: list[tuple[int, bytes, Window]] = []
        self._grow(_INITIAL_CAPACITY)

    @property
    def entries(self) -> int:
        return self.namespace_count + self.timer_count

    def nbytes(self) -> int:
        return (len(self.keys) * _KEY_BYTES + self.entries * _WINDOW_BYTES + 8 * len(self._free)
                + _WINDOW_BYTES * len(self._timer_heap)
                + sum(c.nbytes() for c in self.accumulators))

    def _grow(self, capacity: int) -> None:
        for column in self.accumulators:
            column.grow(capacity)
        self._free.extend(range(capacity - 1, self._capacity - 1, -1))
        self._capacity = capacity

    def key(self, key: bytes, key_group: int) -> KeyWindows:
        entry = self.keys.get(key)
        if entry is None:
            entry = self.keys[key] = KeyWindows(key_group)
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
        return slot

    def drop_namespace(self, entry: KeyWindows, window: Window, free: bool = True) -> int:
        slot = entry.namespaces.pop(window)
        self.namespace_count -= 1
        if free:
            self._free.append(slot)
        return slot

    def register(self, key: bytes, entry: KeyWindows, window: Window) -> bool:
        """Registers the window's timer; False when it already was (Flink's timer service ignores it)."""
        if window in entry.timers:
            return False
        entry.timers.add(window)
        self.timer_count += 1
        heapq.heappush(self._timer_heap, (window[1] - 1, key, window))
        return True

    def delete(self, entry: KeyWindows, window: Window) -> bool:
        """Deletes the window's timer; False when there was none."""
        if window not in entry.timers:
            return False
        entry.timers.discard(window)
        self.timer_count -= 1
        return True

    def due(self, watermark: int) -> list[tuple[bytes, Window]]:
        """Every registered timer at or before `watermark` (key, window), each once; they stay
        registered until `delete`."""
        out, seen = [], set()
        heap = self._timer_heap
        while heap and heap[0][0] <= watermark:
            _, key, window = heapq.heappop(heap)
            entry = self.keys.get(key)
            if entry is not None and window in entry.timers and (key, window) not in seen:
                seen.add((key, window))
                out.append((key, window))
        return out

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
