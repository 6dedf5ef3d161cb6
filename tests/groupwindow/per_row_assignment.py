"""The group_window stage's `update` as it ran before rows were assigned a batch at a time: every
row on its own through `WindowOperator.processElement`'s steps (allowed lateness 0), with the
session merge of `MergingWindowSet.addWindow`. It was verified against stock's `WindowOperator`
by `AcceleratedGroupWindowOperatorTest`; here it is the reference the batch assignment must match
on random batches (timer changes in order, late rows, accumulators and their fold order).

It names every timer call stock's `WindowOperator` makes, including each `registerCleanupTimer` of a
window ending at or before the epoch (a second timer at 0, `WindowOperator.cleanupTime`) and each
`deleteCleanupTimer` of a session merged away, whether or not Flink holds that timer already: the
tests compare what those calls change in Flink's timer set."""

from __future__ import annotations

import bisect

import numpy as np
import pyarrow as pa

from accelerator.groupwindow import windows
from accelerator.groupwindow.assignment import DELETE, REGISTER
from accelerator.groupwindow.state import GroupWindowState, KeyWindows
from accelerator.groupwindow.windows import Window
from accelerator.sidecar import state_calls
from accelerator.windowagg.stage import operand


def update(stage, batch: pa.RecordBatch) -> pa.RecordBatch:
    """What `stage.update(batch)` answers, assigned row by row."""
    state = stage.state
    operands = [operand(a, batch) for a in stage.spec.aggregates]
    assigner = _Assigner(state, operands, state_calls.long(batch, b"accelerator.progress"))
    keys, key_groups = batch.column("$key").to_pylist(), batch.column("$key_group").to_pylist()
    for i, (key, key_group, t) in enumerate(zip(keys, key_groups, batch.column("$time").to_pylist())):
        assigner.row(i, key, key_group, t)
    assigner.apply()
    ops = assigner.ops
    columns = [pa.array([o[0] for o in ops], pa.binary()), pa.array([o[1] for o in ops], pa.int8()),
               pa.array([o[2][0] for o in ops], pa.int64()), pa.array([o[2][1] for o in ops], pa.int64()),
               pa.array([o[3] for o in ops], pa.int64())]
    return state_calls.answer(pa.RecordBatch.from_arrays(columns, schema=stage.ops_schema), dropped=assigner.dropped)


class _Assigner:
    def __init__(self, state: GroupWindowState, operands: list[pa.Array], watermark: int):
        self.state = state
        self.window = state.spec.window
        self.operands = operands
        self.watermark = watermark
        self.ops: list[tuple[bytes, int, Window, int]] = []
        self.dropped = 0
        self.rows: list[int] = []
        self.slots: list[int] = []

    def apply(self) -> None:
        if self.rows:
            rows = pa.array(np.array(self.rows, dtype=np.int64))
            for column, x in zip(self.state.accumulators, self.operands):
                column.fold(np.array(self.slots, dtype=np.int64), x.take(rows))
        self.rows, self.slots = [], []

    def late(self, window: Window) -> bool:
        return window[1] - 1 <= self.watermark

    def _register(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        """The trigger's timer (at end - 1), registered by onElement or onMerge."""
        if self.state.register(key, entry, window):
            self.ops.append((key, REGISTER, window, window[1] - 1))

    def _register_cleanup(self, key: bytes, window: Window) -> None:
        """WindowOperator.registerCleanupTimer: at max(0, end - 1), the trigger's timer unless the
        window ends at or before the epoch."""
        if window[1] - 1 < 0:
            self.ops.append((key, REGISTER, window, 0))

    def _delete(self, key: bytes, entry: KeyWindows, window: Window) -> None:
        """A merged session's clearTrigger, then its deleteCleanupTimer."""
        if self.state.delete(entry, window):
            self.ops.append((key, DELETE, window, window[1] - 1))
        if window[1] - 1 < 0:
            self.ops.append((key, DELETE, window, 0))

    def _namespace(self, entry: KeyWindows, window: Window) -> int:
        slot = entry.namespaces.get(window)
        return self.state.add_namespace(entry, window) if slot is None else slot

    def row(self, i: int, key: bytes, key_group: int, time: int) -> None:
        getattr(self, "_" + self.window.type)(i, key, key_group, time)

    def _tumble(self, i: int, key: bytes, key_group: int, time: int) -> None:
        start = windows.window_start(time, self.window.size_ms)
        window = (start, start + self.window.size_ms)
        if self.late(window):
            self.dropped += 1
            return
        entry = self.state.key(key, key_group)
        self.rows.append(i)
        self.slots.append(self._namespace(entry, window))
        self._register(key, entry, window)
        self._register_cleanup(key, window)

    def _hop(self, i: int, key: bytes, key_group: int, time: int) -> None:
        size, slide, pane_ms = self.window.size_ms, self.window.slide_ms, self.window.pane_ms
        start = windows.window_start(time, pane_ms)
        pane = (start, start + pane_ms)
        if self.late(windows.last_window(pane, size, slide)):
            self.dropped += 1
            return
        entry = self.state.key(key, key_group)
        self.rows.append(i)
        self.slots.append(self._namespace(entry, pane))
        for window in windows.hop_windows(time, size, slide):
            if not self.late(window):
                self._register(key, entry, window)
                self._register_cleanup(key, window)

    def _session(self, i: int, key: bytes, key_group: int, time: int) -> None:
        new = (time, time + self.window.gap_ms)
        entry = self.state.key(key, key_group)
        result = self._add_session(key, entry, new)
        if self.late(result):
            self.state.drop_namespace(entry, result)
            self.state.forget_if_empty(key)
            self.dropped += 1
            return
        self.rows.append(i)
        self.slots.append(entry.namespaces[result])
        self._register(key, entry, result)
        self._register_cleanup(key, result)

    def _add_session(self, key: bytes, entry: KeyWindows, new: Window) -> Window:
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
            return result
        target = entry.namespaces[merged[0]]
        sources = []
        for w in merged:
            slot = self.state.drop_namespace(entry, w, free=False)
            if slot != target:
                sources.append(slot)
        self.state.add_namespace(entry, result, target)
        if not (result in merged and len(merged) == 1):
            self._register(key, entry, result)
            for w in merged:
                self._delete(key, entry, w)
            if sources:
                self.apply()
                self.state.merge(target, sources)
                self.state.free(sources)
        return result
