"""What one input row does to a key's windows, as stock's `WindowOperator.processElement` with
allowed lateness 0 does it: which accumulator namespace it goes into (none when late), and which
timers it registers or deletes, in stock's order. `Folds` collects the (row, slot) pairs and
applies them before any merge of accumulators, so every accumulator sees its operands and merges
in the order stock applies them."""

from __future__ import annotations

import bisect

import numpy as np
import pyarrow as pa

from accelerator.groupwindow import windows
from accelerator.groupwindow.state import GroupWindowState, KeyWindows
from accelerator.groupwindow.windows import Window

REGISTER = 1
DELETE = -1


class NegativeWindow(ValueError):
    """A window ending at or before the epoch: stock keeps its state until watermark 0 (its cleanup
    time is max(0, end - 1)) and fires late rows into it, which is not reproduced."""


class Folds:
    def __init__(self, state: GroupWindowState, operands: list[pa.Array]):
        self.state = state
        self.operands = operands
        self.rows: list[int] = []
        self.slots: list[int] = []

    def add(self, row: int, slot: int) -> None:
        self.rows.append(row)
        self.slots.append(slot)

    def apply(self) -> None:
        if not self.rows:
            return
        rows = pa.array(np.array(self.rows, dtype=np.int64))
        slots = np.array(self.slots, dtype=np.int64)
        for column, operand in zip(self.state.accumulators, self.operands):
            column.fold(slots, operand.take(rows))
        self.rows, self.slots = [], []


class Assigner:
    """Assigns rows of one `update` call at watermark `watermark`; `ops` collects the timer changes
    as (key, REGISTER or DELETE, window) and `dropped` counts the rows stock drops as late."""

    def __init__(self, state: GroupWindowState, folds: Folds, watermark: int):
        self.state = state
        self.window = state.spec.window
        self.folds = folds
        self.watermark = watermark
        self.ops: list[tuple[bytes, int, Window]] = []
        self.dropped = 0

    def late(self, window: Window) -> bool:
        """`isWindowLate`: its cleanup time (end - 1) is at or before the watermark."""
        return window[1] - 1 <= self.watermark

    def _register(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        if window[1] - 1 < 0:
            raise NegativeWindow(window)
        if self.state.register(key, entry, window):
            self.ops.append((key, REGISTER, window))

    def _delete(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        if self.state.delete(entry, window):
            self.ops.append((key, DELETE, window))

    def row(self, i: int, key: bytes, key_group: int, time: int) -> None:
        kind = self.window.type
        if kind == "tumble":
            self._tumble(i, key, key_group, time)
        elif kind == "hop":
            self._hop(i, key, key_group, time)
        else:
            self._session(i, key, key_group, time)

    def _namespace(self, entry: KeyWindows, window: Window) -> int:
        slot = entry.namespaces.get(window)
        return self.state.add_namespace(entry, window) if slot is None else slot

    def _tumble(self, i: int, key: bytes, key_group: int, time: int) -> None:
        start = windows.window_start(time, self.window.size_ms)
        window = (start, start + self.window.size_ms)
        if self.late(window):
            self.dropped += 1
            return
        entry = self.state.key(key, key_group)
        self.folds.add(i, self._namespace(entry, window))
        self._register(key, entry, window)

    def _hop(self, i: int, key: bytes, key_group: int, time: int) -> None:
        size, slide, pane_ms = self.window.size_ms, self.window.slide_ms, self.window.pane_ms
        start = windows.window_start(time, pane_ms)
        pane = (start, start + pane_ms)
        # The pane's last window is the row's last window: when it is late, every window is.
        if self.late(windows.last_window(pane, size, slide)):
            self.dropped += 1
            return
        entry = self.state.key(key, key_group)
        self.folds.add(i, self._namespace(entry, pane))
        for window in windows.hop_windows(time, size, slide):
            if not self.late(window):
                self._register(key, entry, window)

    def _session(self, i: int, key: bytes, key_group: int, time: int) -> None:
        new = (time, time + self.window.gap_ms)
        entry = self.state.key(key, key_group)
        result = self._add_session(key, entry, new)
        if self.late(result):
            # Only a session that merged nothing can be late: the others end after one in flight.
            self.state.drop_namespace(entry, result)
            self.state.forget_if_empty(key)
            self.dropped += 1
            return
        self.folds.add(i, entry.namespaces[result])
        self._register(key, entry, result)

    def _add_session(self, key: bytes, entry: KeyWindows, new: Window) -> Window:
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
            self.state.add_namespace(entry, new)
            return new
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
                self.state._free.extend(sources)
        return result
