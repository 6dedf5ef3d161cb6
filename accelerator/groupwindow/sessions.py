"""SESSION rows of one `update`, one at a time, as stock's `WindowOperator.processElement` with
allowed lateness 0 and `MergingWindowSet.addWindow` take them: which session each row goes into
(none when late), which sessions it merges, and which timers it registers or deletes, in stock's
order. `Folds` collects the (row, slot) pairs and applies them before any merge of accumulators, so
every accumulator sees its operands and merges in the order stock applies them.

Most rows extend their key's latest session or start one after it: those are taken without looking
at the key's other sessions (`_after_last`); the others go through the general merge (`_merge`)."""

from __future__ import annotations

import bisect

import numpy as np
import pyarrow as pa

from accelerator.groupwindow import windows
from accelerator.groupwindow.assignment import DELETE, REGISTER, cleanup_time, trigger_time
from accelerator.groupwindow.state import GroupWindowState, KeyWindows
from accelerator.groupwindow.windows import Window


class Folds:
    def __init__(self, state: GroupWindowState, operands: list[pa.Array]):
        self.state = state
        self.operands = operands
        self.rows: list[int] = []
        self.slots: list[int] = []
        #: Slots given to new sessions since the last `apply`, whose accumulators start fresh then.
        self.fresh: list[int] = []

    def apply(self) -> None:
        """Fresh accumulators for the new sessions' slots, then the collected rows folded in order."""
        if self.fresh:
            self.state.reset(np.array(self.fresh, dtype=np.int64))
            self.fresh.clear()
        if not self.rows:
            return
        rows = pa.array(np.array(self.rows, dtype=np.int64))
        slots = np.array(self.slots, dtype=np.int64)
        for column, operand in zip(self.state.accumulators, self.operands):
            column.fold(slots, operand.take(rows))
        self.rows.clear()  # in place: `SessionAssigner.assign` holds these lists
        self.slots.clear()


class SessionAssigner:
    """Assigns rows of one `update` call at watermark `watermark`; `ops` collects the timer changes
    as (key, REGISTER or DELETE, window, time) and `dropped` counts the rows stock drops as late.
    A session ending before the epoch also has stock's cleanup timer at 0 (`assignment.cleanup_time`),
    registered with each row it takes and deleted when it merges; those are named every time (Flink's
    timer service ignores a registration it holds and a deletion of a timer it does not)."""

    def __init__(self, state: GroupWindowState, folds: Folds, watermark: int):
        self.state = state
        self.gap = state.spec.window.gap_ms
        self.folds = folds
        self.watermark = watermark
        self.ops: list[tuple[bytes, int, Window, int]] = []
        self.op_rows: list[int] = []
        self.row = -1
        self.dropped = 0

    def assign(self, rows: list[int], keys: list[bytes], key_groups: list[int], times: list[int]) -> None:
        """Assigns the rows numbered `rows` of the batch, in order (their keys, key groups and
        times); `ops` and `op_rows` (the row of each change) collect the timer changes and `folds`
        the rows, which the caller applies."""
        held, gap, watermark = self.state.keys, self.gap, self.watermark
        fold_rows, fold_slots = self.folds.rows, self.folds.slots
        for i, key, key_group, time in zip(rows, keys, key_groups, times):
            self.row = i
            entry = held.get(key)
            if entry is None:
                entry = self.state.key(key, key_group)
            namespaces = entry.namespaces
            last = max(namespaces) if namespaces else None
            if last is None or time > last[0]:
                result = self._after_last(key, entry, last, (time, time + gap))
            else:
                result = self._merge(key, entry, (time, time + gap))
            if result[1] - 1 <= watermark:
                # Only a session that merged nothing can be late: the others end after one in flight.
                self.state.drop_namespace(entry, result)
                self.state.forget_if_empty(key)
                self.dropped += 1
                continue
            fold_rows.append(i)
            fold_slots.append(namespaces[result])
            # The trigger's timer (onElement), then registerCleanupTimer.
            self._register(key, entry, result)
            self._cleanup_timer(key, REGISTER, result)

    def _register(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        if self.state.register(key, entry, window):
            self._op(key, REGISTER, window, trigger_time(window))

    def _delete(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        """The trigger's timer of a session merged away (clearTrigger), then its cleanup timer (deleteCleanupTimer)."""
        if self.state.delete(entry, window):
            self._op(key, DELETE, window, trigger_time(window))
        self._cleanup_timer(key, DELETE, window)

    def _cleanup_timer(self, key: bytes, op: int, window: Window) -> None:
        if cleanup_time(window) != trigger_time(window):
            self._op(key, op, window, cleanup_time(window))

    def _op(self, key: bytes, op: int, window: Window, time: int) -> None:
        self.ops.append((key, op, window, time))
        self.op_rows.append(self.row)

    def _new_session(self, entry: KeyWindows, new: Window) -> Window:
        self.folds.fresh.append(self.state.add_namespace(entry, new, reset=False))
        return new

    def _after_last(self, key: bytes, entry: KeyWindows, last: Window | None, new: Window) -> Window:
        """`_merge` for a row after the start of the key's latest session `last` (or of a key
        without sessions): `last` is the floor, there is no ceiling, so only `last` can merge and
        the merged set's order does not matter."""
        if last is None or new[0] > last[1]:
            return self._new_session(entry, new)
        if new[1] <= last[1]:
            return last  # within `last`: nothing changes
        result = (last[0], new[1])
        namespaces = entry.namespaces
        namespaces[result] = namespaces.pop(last)
        self._register(key, entry, result)
        self._delete(key, entry, last)
        return result

    def _merge(self, key: bytes, entry: KeyWindows, new: Window) -> Window:
        """`MergingWindowSet.addWindow` with `SessionWindowAssigner.mergeWindows`: the session `new`
        ends up in, merging the sessions in flight next to it (floor and ceiling by start, end)."""
        ordered = sorted(entry.namespaces)
        at = bisect.bisect_left(ordered, new)
        ceiling = ordered[at] if at < len(ordered) else None
        floor = ordered[at] if ceiling == new else (ordered[at - 1] if at > 0 else None)
        merged, result = [], new
        for other in (ceiling, floor):
            if other is not None and windows.intersects(result, other):
                merged.append(other)
                result = (min(result[0], other[0]), max(result[1], other[1]))
        if not merged:
            return self._new_session(entry, new)
        if len(merged) > 1 or merged[0] == new:
            merged.append(new)
            merged = [w for w in windows.hash_set_order(merged) if w != new]
        if not merged:
            return result  # the same session as one in flight
        target = entry.namespaces[merged[0]]
        sources = []
        for w in merged:
            slot = self.state.drop_namespace(entry, w, free=False)
            if slot != target:
                sources.append(slot)
        self.state.add_namespace(entry, result, target)
        if not (result in merged and len(merged) == 1):
            # MergingFunctionImpl.merge: the merged session's timer, the old sessions' timers
            # deleted, then their accumulators merged into the target's.
            self._register(key, entry, result)
            for w in merged:
                self._delete(key, entry, w)
            if sources:
                self.folds.apply()
                self.state.merge(target, sources)
                self.state.free(sources)
        return result
