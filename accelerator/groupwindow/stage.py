"""The `group_window` stage: the sidecar half of an accelerated group window aggregate
(`GROUP BY TUMBLE/HOP/SESSION(rowtime, ...)` or `TUMBLE/HOP(proctime, ...)`, stock's
`AggregateWindowOperator`).

The JVM operator keeps Flink's control flow: it registers and deletes the event-time timers this
stage names, at the same points and in the same order as stock, and emits each window's row when
Flink's timer service fires its timer. The stage holds the accumulators. Calls, named in the
request schema's metadata as every stateful stage's are (`accelerator.sidecar.state_calls`):

- `update` (metadata `accelerator.progress`: the timer service's watermark, unused over processing
  time, where no row is late): rows in arrival order (`$key`, `$key_group`, `$time`: the rowtime, or
  the processing time at which the row arrived; the aggregates' argument and FILTER columns). Answers the timer
  changes in order (`$key`, `$op`: 1 register, -1 delete, `$start`, `$end`, `$timer_time`: the
  window's `$end - 1`, or 0 for the cleanup timer stock adds to a window ending before the epoch)
  and, in metadata `accelerator.dropped`, the rows dropped as late.
- `fire` (metadata `accelerator.watermark`: the watermark, or over processing time the time of the
  processing-time timer firing): answers every window whose timer that time reaches (`$key`, `$start`, `$end`, the aggregate values, the window properties; the proctime NULL) and clears
  what stock's `cleanWindowIfNeeded` clears.
- `snapshot` / `restore`: the state as Arrow rows grouped by key group: `$key_group`, `$key`,
  `$start`, `$end`, `$namespace` (it holds accumulators), `$timer` (its timer is registered), the
  accumulator fields (`$acc<i>`, NULL where it holds none).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps, types
from accelerator.groupwindow import aligned, panes, session_runs, spec as specs
from accelerator.groupwindow.state import GroupWindowState, new_accumulator
from accelerator.sidecar import keyed_state, state_calls
from accelerator.sidecar.stages import register
from accelerator.sidecar.state_calls import CallError
from accelerator.windowagg.stage import operand, state_fields

KIND = "group_window"
EMPTY = keyed_state.EMPTY
PROGRESS = b"accelerator.progress"
WATERMARK = b"accelerator.watermark"
START = "$start"
END = "$end"
OP = "$op"
TIMER_TIME = "$timer_time"
NAMESPACE = "$namespace"
TIMER = "$timer"
#: The state payload format this sidecar writes and reads (GroupWindowStateFormat.VERSION in the jar).
STATE_FORMAT_VERSION = 1
#: The watermark before any row (Long.MIN_VALUE), at which no window is late.
NO_WATERMARK = -(1 << 63)


class GroupWindowStateError(ValueError):
    """State that cannot be restored into this stage."""


class GroupWindowStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = GroupWindowState(self.spec)
        window_fields = [pa.field(specs.KEY, pa.binary(), nullable=False), pa.field(START, pa.int64(), nullable=False),
                         pa.field(END, pa.int64(), nullable=False)]
        self.ops_schema = pa.schema([window_fields[0], pa.field(OP, pa.int8(), nullable=False)] + window_fields[1:]
                                    + [pa.field(TIMER_TIME, pa.int64(), nullable=False)])
        self.fire_schema = pa.schema(window_fields + list(self.spec.output_fields))
        self.acc_fields = [pa.field(n, types.to_arrow(t)) for n, t in state_fields(self.spec.aggregates)]
        self.state_schema = pa.schema([pa.field(specs.KEY_GROUP, pa.int32(), nullable=False)] + window_fields
                                      + [pa.field(NAMESPACE, pa.bool_(), nullable=False),
                                         pa.field(TIMER, pa.bool_(), nullable=False)] + self.acc_fields)
        self._calls = {"update": self.update, "fire": self.fire, "snapshot": self.snapshot, "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    # -- update ------------------------------------------------------------------------------

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        # Over processing time no window is late: stock drops rows only behind the watermark.
        progress = NO_WATERMARK if self.spec.window.processing_time else state_calls.long(batch, PROGRESS)
        time = batch.column(specs.TIME)
        if time.null_count:
            raise CallError(f"stage {self.name!r}: a row's {specs.TIME} is NULL (stock Flink fails the job too)")
        operands = [operand(a, batch) for a in self.spec.aggregates]
        keys, key_groups = batch.column(specs.KEY), batch.column(specs.KEY_GROUP)
        assign = session_runs.assign if self.spec.window.type == "session" else aligned.assign
        changes = assign(self.state, keys, key_groups.to_numpy(zero_copy_only=False),
                         time.to_numpy(zero_copy_only=False), progress, operands)
        keyed_state.check_budget(self.name, "the group window state", f"{self.state.entries} windows and timers",
                                 self.state.nbytes(), batch)
        return state_calls.answer(pa.RecordBatch.from_arrays(changes.columns(), schema=self.ops_schema),
                                  dropped=changes.dropped)

    # -- fire --------------------------------------------------------------------------------

    def fire(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        watermark = state_calls.long(batch, WATERMARK)
        state, window = self.state, self.spec.window
        fired, entries = state.take_due(watermark)
        if window.type == "hop":
            values = self._fire_panes(fired, entries)
        else:
            slots = np.array([e.namespaces[w] for e, (_, w) in zip(entries, fired)], dtype=np.int64)
            values = [column.value(slots) for column in state.accumulators]
            for entry, (_, w) in zip(entries, fired):
                state.drop_namespace(entry, w)
        for entry, (key, _) in zip(entries, fired):
            if not entry.namespaces and not entry.timers:
                state.keys.pop(key, None)
        return self.fired_answer(fired, values)

    def fired_answer(self, fired: list, values: list[pa.Array]) -> pa.RecordBatch:
        """The `fire` answer for the `fired` windows (key, window) and their aggregates' `values`."""
        n = len(fired)
        starts = np.array([w[0] for _, w in fired], dtype=np.int64)
        ends = np.array([w[1] for _, w in fired], dtype=np.int64)
        columns = [pa.array([k for k, _ in fired], pa.binary()), pa.array(starts, pa.int64()),
                   pa.array(ends, pa.int64())]
        columns += [v.cast(f.type) for v, f in zip(values, self.spec.output_fields)]
        millis = {"window_start": starts, "window_end": ends, "window_time": ends - 1}
        properties = self.spec.output_fields[len(self.spec.aggregates):]
        columns += [pa.nulls(n, f.type) if p == "window_proctime"
                    else timestamps.from_parts(millis[p], np.zeros(n, dtype=np.int32))
                    for p, f in zip(self.spec.window_properties, properties)]
        return pa.RecordBatch.from_arrays(columns, schema=self.fire_schema)

    def _fire_panes(self, fired: list, entries: list) -> list[pa.Array]:
        """`PanedWindowProcessFunction.prepareAggregateAccumulatorForEmit`: fresh accumulators with
        each fired HOP window's panes merged into them in order (all windows' first panes at once,
        then their second ones, ...); then each pane whose last window fired is cleared
        (`cleanWindowIfNeeded` of the pane)."""
        state, window = self.state, self.spec.window
        starts = np.array([w[0] for _, w in fired], dtype=np.int64)
        keys = np.array([e.code for e in entries], dtype=np.int64)
        windows, slots, ranks = panes.window_panes(state.slot_key, state.slot_start, keys, starts, window.size_ms)
        every = np.arange(len(fired))
        merged = [new_accumulator(a, zero, len(fired)) for a, zero in zip(self.spec.aggregates, self.spec.zero_based)]
        for column in merged:
            column.reset(every)
        for rank in range(int(ranks.max()) + 1 if len(ranks) else 0):
            at = np.flatnonzero(ranks == rank)
            for target, source in zip(merged, state.accumulators):
                target.merge(windows[at], source.state(slots[at]))
        pane_starts, pane = state.slot_start[slots], window.pane_ms
        last = np.flatnonzero(pane_starts - np.mod(pane_starts, window.slide_ms) == starts[windows])
        for i, start in zip(windows[last].tolist(), pane_starts[last].tolist()):
            state.drop_namespace(entries[i], (start, start + pane))
        return [column.value(every) for column in merged]

    # -- snapshot and restore ----------------------------------------------------------------

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        rows = []
        for key, entry in self.state.keys.items():
            for w in sorted(set(entry.namespaces) | entry.timers):
                rows.append((entry.key_group, key, w, entry.namespaces.get(w, -1), w in entry.timers))
        rows.sort(key=lambda r: r[0])
        slots = np.array([r[3] for r in rows], dtype=np.int64)
        held = slots >= 0
        columns = [pa.array([r[0] for r in rows], pa.int32()), pa.array([r[1] for r in rows], pa.binary()),
                   pa.array([r[2][0] for r in rows], pa.int64()), pa.array([r[2][1] for r in rows], pa.int64()),
                   pa.array(held), pa.array([r[4] for r in rows], pa.bool_())]
        accs = [f for column in self.state.accumulators for f in column.state(np.where(held, slots, 0))]
        for f, acc in zip(self.acc_fields, accs):
            columns.append(pc.if_else(pa.array(held, pa.bool_()), acc.cast(f.type), pa.nulls(len(rows), f.type)))
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       GroupWindowStateError, "group window aggregate", "keys, window or aggregates")
        keyed_state.check_columns(self.name, batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, GroupWindowStateError).tolist()
        keys = batch.column(specs.KEY).to_pylist()
        starts, ends = batch.column(START).to_pylist(), batch.column(END).to_pylist()
        held, timers = batch.column(NAMESPACE).to_pylist(), batch.column(TIMER).to_pylist()
        slots = []
        for key, key_group, start, end, has_namespace, timer in zip(keys, key_groups, starts, ends, held, timers):
            entry = self.state.key(key, key_group)
            w = (start, end)
            if w in entry.namespaces or w in entry.timers:
                raise GroupWindowStateError(f"stage {self.name!r}: restored state holds window {w} of a key twice")
            if has_namespace:
                slots.append(self.state.add_namespace(entry, w))
            if timer:
                self.state.register(key, entry, w)
        at = pa.array(np.flatnonzero(np.array(held, dtype=bool)))
        names = iter(f.name for f in self.acc_fields)
        for column, aggregate in zip(self.state.accumulators, self.spec.aggregates):
            column.put(np.array(slots, dtype=np.int64), [batch.column(next(names)).take(at) for _ in aggregate.acc_types])
        keyed_state.check_budget(self.name, "the group window state", f"{self.state.entries} windows and timers",
                                 self.state.nbytes(), batch)
        return EMPTY


register(KIND, GroupWindowStage)
