"""The window aggregate's keyed state: one slot per (key, end) holding a slice or a timer, in memory.

Per slot: its key (an id of `KeyIds`, which holds each distinct key's `BinaryRowData` bytes once:
grouping by them is Flink's key equality), its key group, the end, when it was first seen, whether
it holds a slice's accumulators (`sliced`: stock's `window-aggs` state of that slice) and whether
a timer for the window ending there is registered and not yet fired (`timer`: stock's
`window-timers`), the state accumulators and, in phase global, the buffer accumulators of the
partials received since the last flush point (stock's `RecordsWindowBuffer` + `GlobalAggCombiner`).
A slot lives while it holds either; a key's bytes live while any of its slots does. `SlotIndex`
finds the slot of (key id, end) pairs a whole array at a time. Slots not yet handed to a flush
since they received rows are `pending`, in first-occurrence order: the order in which the JVM
registers their timers, which is stock's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.windowagg import accumulators
from accelerator.sidecar.key_ids import KeyIds
from accelerator.windowagg.slot_index import SlotIndex
from accelerator.windowagg.spec import WindowAggSpec

_INITIAL_CAPACITY = 1024


class WindowAggState:
    def __init__(self, spec: WindowAggSpec):
        self.spec = spec
        self.keys_held = KeyIds()
        #: Per key id, how many live slots hold it (its bytes are freed at 0).
        self._key_slots = np.zeros(0, dtype=np.int64)
        self.index = SlotIndex()
        self._free: list[int] = []
        self._next_seen = 0
        self.key_id = np.zeros(0, dtype=np.int64)
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
        return len(self.index)

    def nbytes(self) -> int:
        """The state's memory, estimated from what it holds (the budget of
        docs/design/stateful-window-aggregate.md §3.6): the per-slot arrays and accumulators at their
        capacity, the index from (key, window end) to slot, and each live key's bytes and table
        entry, which a fire frees with the key's last slot."""
        arrays = sum(a.nbytes for a in (self.key_id, self.key_group, self.window_end, self.first_seen, self.live,
                                        self.in_buffer, self.sliced, self.timer, self._key_slots))
        return (arrays + self.keys_held.nbytes() + self.index.nbytes() + 8 * len(self._free)
                + sum(c.nbytes() for c in self.accumulators + self.buffers))

    # -- slots -------------------------------------------------------------------------------

    def slots(self, keys: pa.Array, key_groups: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The slot of each (key, end), created fresh where absent, in first-occurrence order."""
        if len(keys) == 0:
            return np.zeros(0, dtype=np.int64)
        return self.slots_of(self.keys_held.ids(keys), key_groups, ends)

    def slots_of(self, key_ids: np.ndarray, key_groups: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The slot of each (key id, end), created fresh where absent, in first-occurrence order."""
        if len(key_ids) == 0:
            return np.zeros(0, dtype=np.int64)
        # Each distinct pair looked up once, in key order within an end (a batch's rows mostly
        # share one or two ends), which keeps the index's binary searches close together.
        one_end = bool((ends == ends[0]).all())
        if one_end:
            pairs = key_ids
        else:
            _, end_ranks = np.unique(ends, return_inverse=True)
            pairs = end_ranks.reshape(-1) * (int(key_ids.max()) + 1) + key_ids
        _, first, inverse = np.unique(pairs, return_index=True, return_inverse=True)
        found = (self.index.find_at(key_ids[first], int(ends[0])) if one_end
                 else self.index.find(key_ids[first], ends[first]))
        missing = np.flatnonzero(found < 0)
        if len(missing):
            missing = missing[np.argsort(first[missing], kind="stable")]
            rows = first[missing]
            found[missing] = self._create(key_ids[rows], key_groups[rows], ends[rows])
        return found[inverse.reshape(-1)]

    def _create(self, key_ids: np.ndarray, key_groups: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Fresh slots for distinct absent pairs, in their order, taken from the free list (growing
        the arrays when it is empty)."""
        n = len(key_ids)
        slots = np.empty(n, dtype=np.int64)
        made = 0
        while made < n:
            if not self._free:
                self._grow(2 * len(self.live))
            take = min(n - made, len(self._free))
            slots[made:made + take] = self._free[:-take - 1:-1]
            del self._free[-take:]
            made += take
        self.index.add(key_ids, ends, slots)
        if len(self._key_slots) <= key_ids.max():
            extra = 2 * int(key_ids.max()) + 64 - len(self._key_slots)
            self._key_slots = np.concatenate([self._key_slots, np.zeros(extra, dtype=np.int64)])
        np.add.at(self._key_slots, key_ids, 1)
        self.key_id[slots], self.key_group[slots], self.window_end[slots] = key_ids, key_groups, ends
        self.first_seen[slots] = np.arange(self._next_seen, self._next_seen + n)
        self._next_seen += n
        self.live[slots] = True
        for column in self.accumulators:
            column.reset(slots)
        return slots

    def add_pending(self, slots: np.ndarray) -> None:
        """Marks the slots that received rows as pending, in first-occurrence order: stock's buffer
        holds every (key, slice) that received rows since its last flush, and its flush registers
        each one's timer (again, for a slice that had state before, unless fired at the timer
        service's watermark; Flink keeps one timer per key, window and time)."""
        _, first = np.unique(slots, return_index=True)
        new = slots[np.sort(first)]
        if self.pending:
            new = new[~np.isin(new, np.array(self.pending, dtype=np.int64))]
        self.pending.extend(new.tolist())

    def _grow(self, capacity: int) -> None:
        old = len(self.live)
        extra = capacity - old
        self.key_id = np.concatenate([self.key_id, np.zeros(extra, dtype=np.int64)])
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
        """Frees distinct live slots, and the keys of which they were the last."""
        if not len(slots):
            return
        key_ids = self.key_id[slots]
        self.index.remove(key_ids, self.window_end[slots])
        np.subtract.at(self._key_slots, key_ids, 1)
        touched = np.unique(key_ids)
        self.keys_held.free(touched[self._key_slots[touched] == 0])
        self.live[slots] = False
        self.sliced[slots] = False
        self.timer[slots] = False
        self._free.extend(slots.tolist())

    def release_unused(self, slots: np.ndarray) -> None:
        """Releases those of `slots` that hold neither a slice nor a timer."""
        self.release(np.unique(slots[~self.sliced[slots] & ~self.timer[slots]]))

    # -- reading -----------------------------------------------------------------------------

    def held(self, keys: pa.Array, ends: np.ndarray) -> np.ndarray:
        """Whether the state holds each (key, end)."""
        key_ids = self.keys_held.find(keys)
        return (key_ids >= 0) & (self.index.find(key_ids, ends) >= 0)

    def keys(self, slots: np.ndarray) -> pa.Array:
        return self.keys_held.keys(self.key_id[slots])

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
