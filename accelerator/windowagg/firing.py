"""Which windows a watermark fires and their values, as stock Flink's timers and slice processors
make them (docs/design/stateful-window-aggregate.md §1, §8 "as built").

Every (key, window) with a registered timer whose trigger is at or before the watermark fires, in
window-end order per key (the timer queue's order within a key; the order across keys is the
JVM's, from Flink's own timer service). A window's value is a fresh accumulator into which the
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
    """The emitted windows (key bytes, window end, one Arrow column per aggregate) and how many
    fired empty (their timers emit nothing)."""

    keys: list[bytes]
    ends: list[int]
    #: Per aggregate, its values' chunks (one per window end fired).
    values: list[list[pa.Array]]
    empty: int

    def column(self, index: int, arrow_type: pa.DataType) -> pa.Array:
        return pa.concat_arrays(self.values[index]) if self.values[index] else pa.array([], arrow_type)


def fire(state: WindowAggState, spec: WindowAggSpec, watermark: int) -> Fired:
    """Fires every window whose timer `watermark` reaches, the following ones it registers
    included; raises `UnflushedSlice` if a window would read rows stock still buffers."""
    window = spec.window
    live = state.live_slots()
    due = live[state.timer[live] & windows.fired(state.window_end[live], window, watermark)]
    queue: dict[int, dict[bytes, int]] = {}
    for slot in due.tolist():
        queue.setdefault(int(state.window_end[slot]), {})[state.key_at(slot)] = int(state.key_group[slot])
    waiting = set(state.pending) | set(np.flatnonzero(state.in_buffer).tolist())
    ends = list(queue)
    heapq.heapify(ends)
    fired = Fired([], [], [[] for _ in spec.aggregates], 0)
    while ends:
        end = heapq.heappop(ends)
        group = queue.pop(end)
        keys = list(group)
        merged = _merge(state, spec, keys, group, end, waiting)
        star = spec.count_star
        nonempty = np.ones(len(keys), dtype=bool) if star is None else merged[star].values != 0
        emitted = np.flatnonzero(nonempty)
        fired.keys += [keys[i] for i in emitted.tolist()]
        fired.ends += [end] * len(emitted)
        for chunks, column in zip(fired.values, merged):
            chunks.append(column.value(emitted))
        fired.empty += len(keys) - len(emitted)
        _expire(state, spec, keys, end)
        following = windows.next_window(end, window) if window.shared else None
        # CUMULATE's next window ignores emptiness (its aggregate has no COUNT(*) index anyway).
        chosen = keys if window.cumulative else [keys[i] for i in emitted.tolist()]
        if following is not None and chosen:
            slots = state.slots(pa.array(chosen, pa.binary()), np.array([group[k] for k in chosen], dtype=np.int32),
                                np.full(len(chosen), following, dtype=np.int64))
            state.timer[slots] = True
            if windows.fired(np.array([following], dtype=np.int64), window, watermark)[0]:
                if following not in queue:
                    heapq.heappush(ends, following)
                queue.setdefault(following, {}).update((k, group[k]) for k in chosen)
    return fired


def _merge(state: WindowAggState, spec: WindowAggSpec, keys: list[bytes], group: dict[bytes, int], end: int,
           waiting: set[int]) -> list:
    """A fresh accumulator per key, with the window's slices merged into it in stock's order; for
    CUMULATE it becomes the first slice's state (`SliceSharedSyncStateWindowAggProcessor.merge`
    updates the merge target)."""
    every = np.arange(len(keys))
    merged = [accumulators.for_aggregate(a, len(keys)) for a in spec.aggregates]
    for column in merged:
        column.reset(every)
    slice_ends = windows.merged_slices(end, spec.window)
    for slice_end in slice_ends:
        found = [(i, state.slot_of(k, slice_end)) for i, k in enumerate(keys)]
        found = [(i, s) for i, s in found if s is not None and state.sliced[s]]
        if not found:
            continue
        if any(s in waiting for _, s in found):
            raise UnflushedSlice(slice_end)
        at = np.array([i for i, _ in found], dtype=np.int64)
        slots = np.array([s for _, s in found], dtype=np.int64)
        for target, source in zip(merged, state.accumulators):
            target.merge(at, source.state(slots))
    if spec.window.cumulative:
        first = state.slots(pa.array(keys, pa.binary()), np.array([group[k] for k in keys], dtype=np.int32),
                            np.full(len(keys), slice_ends[0], dtype=np.int64))
        for target, column in zip(state.accumulators, merged):
            target.put(first, column.state(every))
        state.sliced[first] = True
    return merged


def _expire(state: WindowAggState, spec: WindowAggSpec, keys: list[bytes], end: int) -> None:
    """The fired windows' timers are gone and their expired slices cleared (`clearWindow`)."""
    timers = [state.slot_of(k, end) for k in keys]
    expired = [s for e in windows.expired_slices(end, spec.window) for s in (state.slot_of(k, e) for k in keys)
               if s is not None]
    timers = np.array(timers, dtype=np.int64)
    expired = np.array(expired, dtype=np.int64)
    state.timer[timers] = False
    state.sliced[expired] = False
    state.release_unused(np.concatenate([timers, expired]))
