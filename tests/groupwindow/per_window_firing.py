"""The group_window stage's `fire` as it ran before HOP windows were fired a batch at a time: the
due timers found by scanning every key's timers, then each window on its own, a HOP window's panes
looked up one by one and merged in order into fresh accumulators (stock's
`PanedWindowProcessFunction.prepareAggregateAccumulatorForEmit`), the panes whose last window it is
cleared. It is the reference the batch firing must match (`test_batch_assignment`)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.groupwindow import windows
from accelerator.groupwindow.state import new_accumulator
from accelerator.sidecar import state_calls


def fire(stage, batch: pa.RecordBatch) -> pa.RecordBatch:
    """What `stage.fire(batch)` answers, fired window by window."""
    watermark = state_calls.long(batch, b"accelerator.watermark")
    state, window, spec = stage.state, stage.spec.window, stage.spec
    due = sorted((w[1] - 1, key, w) for key, entry in state.keys.items() for w in entry.timers
                 if w[1] - 1 <= watermark)
    fired, rows = [], [[] for _ in spec.aggregates]
    one = np.zeros(1, dtype=np.int64)
    for _, key, w in due:
        entry = state.keys[key]
        if window.type == "hop":
            merged = [new_accumulator(a, zero, 1) for a, zero in zip(spec.aggregates, spec.zero_based)]
            for column in merged:
                column.reset(one)
            for pane in windows.panes(w, window.pane_ms):
                slot = entry.namespaces.get(pane)
                if slot is not None:
                    for target, source in zip(merged, state.accumulators):
                        target.merge(one, source.state(np.array([slot], dtype=np.int64)))
            values = [column.value(one) for column in merged]
            for pane in windows.panes(w, window.pane_ms):
                if pane in entry.namespaces and windows.last_window(pane, window.size_ms, window.slide_ms) == w:
                    state.drop_namespace(entry, pane)
        else:
            slot = np.array([entry.namespaces[w]], dtype=np.int64)
            values = [column.value(slot) for column in state.accumulators]
            state.drop_namespace(entry, w)
        state.delete(entry, w)
        state.forget_if_empty(key)
        fired.append((key, w))
        for row, value in zip(rows, values):
            row.append(value)
    return stage.fired_answer(fired, [pa.concat_arrays(row) if row else column.value(one[:0])
                                      for row, column in zip(rows, state.accumulators)])
