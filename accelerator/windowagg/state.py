"""The window aggregate's keyed state: one slot per (key, end) holding a slice or a timer, in memory.

Per slot: the key's `BinaryRowData` bytes (grouping by them is Flink's key equality), its key
group, the end, when it was first seen, whether it holds a slice's accumulators (`sliced`: stock's
`window-aggs` state of that slice) and whether a timer for the window ending there is registered
and not yet fired (`timer`: stock's `window-timers`), the state accumulators and, in phase global,
the buffer accumulators of the partials received since the last flush point (stock's
`RecordsWindowBuffer` + `GlobalAggCombiner`). A slot lives while it holds either. Slots not yet
handed to a flush since they received rows are `pending`, in first-occurrence order: the order in
which the JVM registers their timers, which is stock's.
"""

from __future__ import annotations

import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.windowagg import accumulators
from accelerator.windowagg.spec import WindowAggSpec

_INITIAL_CAPACITY = 1024
#: What a live entry holds besides its key's bytes object: the table's (key, window end) tuple and
#: the window end's int object, measured on this interpreter.
_ENTRY_OBJECT_BYTES = sys.getsizeof((b"", 0)) + sys.getsizeof(2 ** 40)


class WindowAggState:
    def __init__(self, spec: WindowAggSpec):
        self.spec = spec
        self._slot_of: dict[tuple[bytes, int], int] = {}
        self._keys: list[bytes | None] = []
        self._entry_bytes = 0
        self._free: list[int] = []
        self._next_seen = 0
        self.key_group = np.zeros(0, dtype=np.int32)
        self.window_end = np.zeros(0, dtype=np.int64)
        self.first_seen = np.zeros(0, dtype=np.int64)
        self.live = np.zeros(0, dtype=bool)
        self.in_buffer = np.zeros(0, dtype=bool)
        self.sliced = np.zeros(0, dtype=bool)
        self.timer = np.zeros(0, dtype=bool)
        self.pending: list[int] = []
        self.accumulators = [accumulators.for_aggregate(a) for a in spec.aggregates]
        self.buffers = [accumulators.for_aggregate(a) for a in spec.aggregates] if spec.phase == "global" else []
        self._grow(_INITIAL_CAPACITY)

    @property
    def entries(self) -> int:
        return len(self._slot_of)

    def nbytes(self) -> int:
        """The state's memory, estimated from what it holds (the budget of
        docs/design/stateful-window-aggregate.md §3.6): the per-slot arrays and accumulators at their
        capacity, the table from (key, window end) to slot, and each live entry's key and table objects,
        which a fire frees."""
        arrays = sum(a.nbytes for a in (self.key_group, self.window_end, self.first_seen, self.live, self.in_buffer,
                                                self.sliced, self.timer))
        table = sys.getsizeof(self._slot_of) + sys.getsizeof(self._keys) + sys.getsizeof(self._free)
        return (arrays + table + self._entry_bytes
                + sum(c.nbytes() for c in self.accumulators + self.buffers))

    # -- slots -------------------------------------------------------------------------------

    def slots(self, keys: pa.Array, key_groups: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The slot of each (key, end), created fresh where absent, in first-occurrence order."""
        n = len(keys)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if keys.null_count:
            raise ValueError("a $key is NULL; every row carries its key's bytes")
        encoded = pc.dictionary_encode(keys)
        key_ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        end_values, end_ids = np.unique(ends, return_inverse=True)
        pair_ids = key_ids * len(end_values) + end_ids
        _, first, inverse = np.unique(pair_ids, return_index=True, return_inverse=True)
        by_first = np.argsort(first, kind="stable")
        key_list = encoded.dictionary.to_pylist()
        pair_slots = np.empty(len(first), dtype=np.int64)
        created = []
        for pair in by_first.tolist():
            row = int(first[pair])
            key, end = key_list[key_ids[row]], int(ends[row])
            slot = self._slot_of.get((key, end))
            if slot is None:
                slot = self._create(key, int(key_groups[row]), end)
                created.append(slot)
            pair_slots[pair] = slot
        if created:
            fresh = np.array(created, dtype=np.int64)
            for column in self.accumulators:
                column.reset(fresh)
        return pair_slots[inverse]

    def add_pending(self, slots: np.ndarray) -> None:
        """Marks the slots that received rows as pending, in first-occurrence order: stock's buffer
        holds every (key, slice) that received rows since its last flush, and its flush registers
        each one's timer (again, for a slice that had state before, unless fired at the timer
        service's watermark; Flink keeps one timer per key, window and time)."""
        _, first = np.unique(slots, return_index=True)
        held = set(self.pending)
        self.pending.extend(s for s in slots[np.sort(first)].tolist() if s not in held)

    def _create(self, key: bytes, key_group: int, end: int) -> int:
        if not self._free:
            self._grow(2 * len(self.live))
        slot = self._free.pop()
        self._slot_of[(key, end)] = slot
        self._keys[slot] = key
        self._entry_bytes += sys.getsizeof(key) + _ENTRY_OBJECT_BYTES
        self.key_group[slot], self.window_end[slot] = key_group, end
        self.first_seen[slot], self._next_seen = self._next_seen, self._next_seen + 1
        self.live[slot] = True
        return slot

    def _grow(self, capacity: int) -> None:
        old = len(self.live)
        extra = capacity - old
        self._keys.extend([None] * extra)
        self.key_group = np.concatenate([self.key_group, np.zeros(extra, dtype=np.int32)])
        self.window_end = np.concatenate([self.window_end, np.zeros(extra, dtype=np.int64)])
        self.first_seen = np.concatenate([self.first_seen, np.zeros(extra, dtype=np.int64)])
        self.live = np.concatenate([self.live, np.zeros(extra, dtype=bool)])
        self.in_buffer = np.concatenate([self.in_buffer, np.zeros(extra, dtype=bool)])
        self.sliced = np.concatenate([self.sliced, np.zeros(extra, dtype=bool)])
        self.timer = np.concatenate([self.timer, np.zeros(extra, dtype=bool)])
        for column in self.accumulators + self.buffers:
            column.grow(capacity)
        # Popped from the end: lowest slots first.
        self._free.extend(range(capacity - 1, old - 1, -1))

    def release(self, slots: np.ndarray) -> None:
        for slot in slots.tolist():
            key = self._keys[slot]
            del self._slot_of[(key, int(self.window_end[slot]))]
            self._entry_bytes -= sys.getsizeof(key) + _ENTRY_OBJECT_BYTES
            self._keys[slot] = None
        self.live[slots] = False
        self.sliced[slots] = False
        self.timer[slots] = False
        self._free.extend(slots.tolist())

    def release_unused(self, slots: np.ndarray) -> None:
        """Releases those of `slots` that hold neither a slice nor a timer."""
        self.release(np.unique(slots[~self.sliced[slots] & ~self.timer[slots]]))

    # -- reading -----------------------------------------------------------------------------

    def holds(self, key: bytes, end: int) -> bool:
        return (key, end) in self._slot_of

    def slot_of(self, key: bytes, end: int) -> int | None:
        return self._slot_of.get((key, end))

    def key_at(self, slot: int) -> bytes:
        return self._keys[slot]

    def keys(self, slots: np.ndarray) -> pa.Array:
        return pa.array([self._keys[s] for s in slots.tolist()], pa.binary())

    def live_slots(self) -> np.ndarray:
        """Every live slot, in first-occurrence order."""
        slots = np.flatnonzero(self.live)
        return slots[np.argsort(self.first_seen[slots], kind="stable")]

    # -- the global phase's buffer -----------------------------------------------------------

    def open_buffers(self, slots: np.ndarray) -> None:
        """Fresh buffer accumulators for the slots without partials since the last flush point."""
        opening = np.unique(slots[~self.in_buffer[slots]])
        for column in self.buffers:
            column.reset(opening)
        self.in_buffer[opening] = True

    def merge_buffers(self) -> None:
        """Merges each buffered accumulator into its state accumulator and empties the buffer."""
        slots = np.flatnonzero(self.in_buffer)
        for state, buffer in zip(self.accumulators, self.buffers):
            state.merge_from(buffer, slots)
        self.in_buffer[slots] = False
