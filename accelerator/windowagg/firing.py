"""Which windows a watermark fires and their values, as stock Flink's timers and slice processors
make them (docs/design/stateful-window-aggregate.md §1, §8 "as built").

Every (key, window) with a registered timer whose trigger is at or before the watermark fires, in
window-end order per key (the timer queue's order within a key; the order across keys is the
timer queue's, the stage's own (`timer_queue`) or Flink's in the JVM). A window's value is a fresh accumulator into which the
window's slices are merged in stock's order (`windows.merged_slices`), so order-sensitive sums add
as stock's do: a HOP window's from its last slice back to its first, a TUMBLE window's one slice,
a CUMULATE window's first slice then its last, the result becoming the first slice's state (the
next window of the same max-size window continues from it). A window whose COUNT(*) is 0 emits
nothing. Then its expired slices are cleared (`windows.expired_slices`) and the next window's
timer is registered (`nextTriggerWindow`): for HOP windows that were not empty, for CUMULATE
windows up to the last of their max-size window; it fires in the same pass when the watermark has
reached it.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator.windowagg import accumulators, windows
from accelerator.windowagg.spec import WindowAggSpec
from accelerator.windowagg.state import WindowAggState


class UnflushedSlice(Exception):
    """A firing window would read a slice whose rows stock still holds in its buffer."""

    def __init__(self, end: int):
        super().__init__(end)
        self.end = end


@dataclass
class Fired:
    """The fired windows' timers, in chunks of one window end each (key ids, key bytes, ends), which
    of them emit a row (`emitted`, indexes into those) with their values per aggregate, and the
    timers whose firing registered the next window's timer (`follows`, indexes too); the timers of
    windows fired empty emit nothing."""

    key_ids: list[np.ndarray]
    keys: list[pa.Array]
    ends: list[np.ndarray]
    emitted: list[np.ndarray]
    #: Per aggregate, its emitted values' chunks.
    values: list[list[pa.Array]]
    follows: list[np.ndarray]

    @property
    def empty(self) -> int:
        return self.timers() - len(self.emitted_rows())

    def timers(self) -> int:
        return sum(len(ends) for ends in self.ends)

    def key_id_column(self) -> np.ndarray:
        return _concat(self.key_ids)

    def key_column(self) -> pa.Array:
        return _concat_keys(self.keys)

    def end_column(self) -> np.ndarray:
        return _concat(self.ends)

    def emitted_rows(self) -> np.ndarray:
        return _concat(self.emitted)

    def column(self, index: int, arrow_type: pa.DataType) -> pa.Array:
        return pa.concat_arrays(self.values[index]) if self.values[index] else pa.array([], arrow_type)

    def follow_rows(self) -> np.ndarray:
        """The timers (indexes, as `emitted_rows`) whose firing registered their next window's timer."""
        return _concat(self.follows)


def _concat(chunks: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)


def _concat_keys(chunks: list[pa.Array]) -> pa.Array:
    return pa.concat_arrays(chunks) if chunks else pa.array([], pa.binary())


@dataclass
class _Due:
    """The keys (ids) whose window ending at one end fires, in the order they fire, with their key
    groups."""

    key_ids: np.ndarray
    key_groups: np.ndarray

    def add(self, key_ids: np.ndarray, key_groups: np.ndarray) -> None:
        """Appends the keys not yet due here, in their order."""
        new = ~np.isin(key_ids, self.key_ids)
        self.key_ids = np.concatenate([self.key_ids, key_ids[new]])
        self.key_groups = np.concatenate([self.key_groups, key_groups[new]])


def fire(state: WindowAggState, spec: WindowAggSpec, watermark: int) -> Fired:
    """Fires every window whose timer `watermark` reaches, the following ones it registers
    included; raises `UnflushedSlice` if a window would read rows stock still buffers."""
    window = spec.window
    timers = np.flatnonzero(state.timer)
    due = timers[windows.fired(state.window_end[timers], window, watermark)]
    # Per window end its keys in first-occurrence order of their timers' slots.
    due = due[np.lexsort((state.first_seen[due], state.window_end[due]))]
    due_ends, starts = np.unique(state.window_end[due], return_index=True)
    queue = {end: _Due(state.key_id[slots], state.key_group[slots])
             for end, slots in zip(due_ends.tolist(), np.split(due, starts[1:]))}
    waiting = np.zeros(len(state.live), dtype=bool)
    waiting[np.array(state.pending, dtype=np.int64)] = True
    waiting |= state.in_buffer
    ends = list(queue)
    heapq.heapify(ends)
    fired = Fired([], [], [], [], [[] for _ in spec.aggregates], [])
    timers = 0
    while ends:
        end = heapq.heappop(ends)
        group = queue.pop(end)
        key_ids, key_groups = group.key_ids, group.key_groups
        merged = _merge(state, spec, group, end, waiting)
        star = spec.count_star
        emitted = np.arange(len(key_ids)) if star is None else np.flatnonzero(merged[star].values != 0)
        keys = state.keys_held.keys(key_ids)
        fired.key_ids.append(key_ids)
        fired.keys.append(keys)
        fired.ends.append(np.full(len(key_ids), end, dtype=np.int64))
        fired.emitted.append(timers + emitted)
        for chunks, column in zip(fired.values, merged):
            chunks.append(column.value(emitted))
        following = windows.next_window(end, window) if window.shared else None
        # CUMULATE's next window ignores emptiness (its aggregate has no COUNT(*) index anyway).
        chosen = slice(None) if window.cumulative else emitted
        chosen_ids, chosen_groups = key_ids[chosen], key_groups[chosen]
        if following is not None and len(chosen_ids):
            fired.follows.append(timers + np.arange(len(key_ids))[chosen])
            # Registered before the fired window's slots are released: the keys stay held.
            slots = state.slots_of(chosen_ids, chosen_groups, np.full(len(chosen_ids), following, dtype=np.int64))
            state.timer[slots] = True
            if windows.fired(np.array([following], dtype=np.int64), window, watermark)[0]:
                if following in queue:
                    queue[following].add(chosen_ids, chosen_groups)
                else:
                    heapq.heappush(ends, following)
                    queue[following] = _Due(chosen_ids, chosen_groups)
        _expire(state, spec, key_ids, end)
        timers += len(key_ids)
    return fired


def _merge(state: WindowAggState, spec: WindowAggSpec, due: _Due, end: int, waiting: np.ndarray) -> list:
    """A fresh accumulator per key, with the window's slices merged into it in stock's order; for
    CUMULATE it becomes the first slice's state (`SliceSharedSyncStateWindowAggProcessor.merge`
    updates the merge target)."""
    every = np.arange(len(due.key_ids))
    merged = [accumulators.for_aggregate(a, len(every)) for a in spec.aggregates]
    for column in merged:
        column.reset(every)
    slice_ends = windows.merged_slices(end, spec.window)
    for slice_end in slice_ends:
        slots = state.index.find_at(due.key_ids, slice_end)
        at = np.flatnonzero(slots >= 0)
        at = at[state.sliced[slots[at]]]
        if not len(at):
            continue
        slots = slots[at]
        if waiting[slots[slots < len(waiting)]].any():
            raise UnflushedSlice(slice_end)
        for target, source in zip(merged, state.accumulators):
            target.merge(at, source.state(slots))
    if spec.window.cumulative:
        first = state.slots_of(due.key_ids, due.key_groups, np.full(len(every), slice_ends[0], dtype=np.int64))
        for target, column in zip(state.accumulators, merged):
            target.put(first, column.state(every))
        state.sliced[first] = True
    return merged


def _expire(state: WindowAggState, spec: WindowAggSpec, key_ids: np.ndarray, end: int) -> None:
    """The fired windows' timers are gone and their expired slices cleared (`clearWindow`)."""
    timers = state.index.find_at(key_ids, end)
    expired = np.concatenate([np.zeros(0, dtype=np.int64)]
                             + [state.index.find_at(key_ids, e) for e in windows.expired_slices(end, spec.window)])
    timers, expired = timers[timers >= 0], expired[expired >= 0]
    state.timer[timers] = False
    state.sliced[expired] = False
    state.release_unused(np.concatenate([timers, expired]))
