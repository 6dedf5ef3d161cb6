"""The `window_agg` stage: the sidecar half of an event-time TUMBLE, HOP or CUMULATE window aggregate.

The JVM operator keeps Flink's control flow (watermarks, timers, checkpoints) and calls this stage
at the points stock Flink's `WindowAggOperator` would touch its buffer and state; the stage keeps
the state and computes the values (docs/design/stateful-window-aggregate.md §3-§4). One request
batch is one call, named in its schema metadata (`protocol`):

- `update`: rows in arrival order; each is dropped if its slice's last window is fired at
  `progress`, else accumulated into its slice (phase single) or buffered as a partial (phase
  global); a row whose slice fired before its last window did registers that window's timer
  (a CUMULATE row then goes into its window's first slice, as stock's does). Answers, in its
  metadata, the rows `dropped` as late, the rows `accepted` and the `smallest_end` of the slices
  they went to (what stock's buffer keeps to decide its next flush: the JVM reads them for rows
  it did not look at, from a batch exchange) and, while the JVM keeps Flink's timers, the timers
  those arrivals register, in row order (`$key`, `$window_end`).
- `flush`: stock's buffer flush point. Phase global merges the buffered partials into state;
  both answer the (key, slice) pairs that received rows since the last flush and are not fired
  at the timer watermark, in first-occurrence order, for the JVM to register their timers in
  stock's order.
- `fire`: answers every window whose timer the watermark reaches, with its values (`firing`).
- `snapshot` / `restore`: the state as Arrow rows, grouped by key group, for Flink's raw keyed
  state; restore takes only key groups of the subtask's range, so rescaling needs nothing else.
- `timers`: which timer queue the operator's keyed backend has (`timer_queue`), before any other
  call. With `heap` or `rocksdb` the stage registers every timer stock registers in that queue
  (`update`, `flush` and `fire`, which then answers the windows in the queue's firing order, and
  `flush` answers no pairs), and the JVM keeps no Flink timer; with `flink` (the default) the JVM
  registers Flink's timers from the `flush` answer and emits the `fire` answer as they fire.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps, types
from accelerator.sidecar import keyed_state, state_calls
from accelerator.sidecar.stages import register
from accelerator.sidecar.state_calls import CallError
from accelerator.windowagg import firing, protocol, spec as specs, timer_queue, windows
from accelerator.windowagg.state import WindowAggState

KIND = "window_agg"
#: Transport columns of the answers and of the state payload.
WINDOW_END = "$window_end"
ACC_PREFIX = "$acc"
#: State payload columns: whether the entry holds its slice's accumulators, and whether the timer
#: of the window ending there is registered (an entry may be either or both).
SLICE = "$slice"
TIMER = "$timer"

EMPTY = pa.RecordBatch.from_arrays([], schema=pa.schema([]))
PAIRS_SCHEMA = pa.schema([pa.field(specs.KEY, pa.binary(), nullable=False),
                          pa.field(WINDOW_END, pa.int64(), nullable=False)])
_NO_PAIRS = pa.RecordBatch.from_arrays([pa.array([], pa.binary()), pa.array([], pa.int64())], schema=PAIRS_SCHEMA)


class WindowAggStateError(ValueError):
    """State that cannot be restored into this stage, or a call order that would make its state
    diverge from stock Flink's."""


class WindowAggStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = WindowAggState(self.spec)
        self.state_schema = pa.schema(
            [pa.field(specs.KEY_GROUP, pa.int32(), nullable=False)] + list(PAIRS_SCHEMA)
            + [pa.field(SLICE, pa.bool_(), nullable=False), pa.field(TIMER, pa.bool_(), nullable=False)]
            + [pa.field(name, types.to_arrow(t), nullable=t.nullable) for name, t in state_fields(self.spec.aggregates)])
        self.fire_schema = pa.schema(list(PAIRS_SCHEMA) + list(self.spec.output_fields))
        self._calls = {"update": self.update, "flush": self.flush, "fire": self.fire,
                       "snapshot": self.snapshot, "restore": self.restore, "timers": self.set_timers}
        #: The stage's own timer queue, or None while the JVM keeps Flink's timers.
        self.timers: timer_queue.WindowTimers | None = None

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, "window_agg", self._calls, self.state, batch)

    # -- update ------------------------------------------------------------------------------

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        self._check_columns(batch, self.spec.input_schema, "update")
        progress = state_calls.long(batch, protocol.PROGRESS)
        time = batch.column(specs.TIME)
        if time.null_count:
            raise CallError(f"stage {self.name!r}: a row's {specs.TIME} is NULL (stock Flink fails the job:"
                            f" RowTime field should not be null)")
        time = time.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        window = self.spec.window
        ends = windows.slice_ends(time, window) if self.spec.phase == "single" else time
        # Dropped once the slice's last window fired; a row whose slice fired before that is still
        # accepted, and stock registers a timer for its first window not yet fired.
        accepted = ~windows.fired(windows.last_window_ends(ends, window), window, progress)
        dropped = len(accepted) - int(accepted.sum())
        rows = batch.filter(pa.array(accepted)) if dropped else batch
        ends = ends[accepted]
        behind = windows.fired(ends, window, progress)
        key_groups = rows.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False)
        keys = rows.column(specs.KEY)
        # A CUMULATE row whose slice fired goes into the first slice, which holds the fired
        # windows' merged state (stock's `sliceStateMergeTarget`); elsewhere into its own slice.
        targets = np.where(behind, windows.first_slice_ends(ends, window), ends) if window.cumulative else ends
        slots = self.state.slots(keys, key_groups, targets)
        self.state.sliced[slots] = True
        self.state.add_pending(slots)
        if self.spec.phase == "single":
            for column, aggregate in zip(self.state.accumulators, self.spec.aggregates):
                column.fold(slots, operand(aggregate, rows))
        else:
            self.state.open_buffers(slots)
            for column, aggregate in zip(self.state.buffers, self.spec.aggregates):
                column.merge(slots, [rows.column(name) for name in _partial_columns(aggregate)])
        arrivals = _NO_PAIRS
        if behind.any():
            mask = pa.array(behind)
            firsts = windows.first_unfired(ends[behind], window, progress)
            timers = self.state.slots(keys.filter(mask), key_groups[behind], firsts)
            self.state.timer[timers] = True
            self._register(timers)
            if self.timers is None:
                arrivals = pa.RecordBatch.from_arrays([keys.filter(mask).cast(pa.binary()), pa.array(firsts, pa.int64())],
                                                      schema=PAIRS_SCHEMA)
        self._check_budget(batch)
        smallest = int(targets.min()) if len(targets) else np.iinfo(np.int64).max
        return state_calls.answer(arrivals, dropped=dropped, accepted=len(targets), smallest_end=smallest)

    # -- flush and fire ----------------------------------------------------------------------

    def flush(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        timer_watermark = state_calls.long(batch, protocol.TIMER_WATERMARK)
        pending = np.array(self.state.pending, dtype=np.int64)
        # Stock's combiner registers no timer for a slice already fired at the timer service's
        # watermark (a row accepted after its slice fired: its timer was registered on arrival).
        pending = pending[~windows.fired(self.state.window_end[pending], self.spec.window, timer_watermark)]
        if self.spec.phase == "global":
            self.state.merge_buffers()
        self.state.pending.clear()
        self.state.timer[pending] = True
        if self.timers is not None:
            self._register(pending)
            return _NO_PAIRS
        return pa.RecordBatch.from_arrays([self.state.keys(pending), pa.array(self.state.window_end[pending], pa.int64())],
                                          schema=PAIRS_SCHEMA)

    def _register(self, slots: np.ndarray) -> None:
        """Registers the timers of the windows ending at `slots`' ends in the stage's queue, in order,
        as stock registers them on Flink's timer service."""
        if self.timers is None or not len(slots):
            return
        ends = self.state.window_end[slots]
        self.timers.add(self._timer_keys(slots), self.state.key_group[slots], ends,
                        windows.triggers(ends, self.spec.window))

    def _timer_keys(self, slots: np.ndarray):
        """The queue's keys of the slots' timers: key ids on the heap queue, key bytes on RocksDB's."""
        return self.state.key_id[slots] if self.timers.kind == timer_queue.HEAP else self.state.keys(slots)

    def set_timers(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        """The `timers` call: which timer queue the operator's keyed backend has, for the subtask's key
        groups; before any state arrives."""
        kind = state_calls.text(batch, protocol.TIMERS)
        if kind not in timer_queue.KINDS:
            raise CallError(f"stage {self.name!r}: timers must be one of {list(timer_queue.KINDS)}, not {kind!r}")
        if self.state.entries:
            raise WindowAggStateError(f"stage {self.name!r}: the timers call came after the stage took state; the"
                                      f" operator names its timer queue before it restores or sends rows")
        first = state_calls.long(batch, state_calls.KEY_GROUP_START)
        last = state_calls.long(batch, state_calls.KEY_GROUP_END)
        self.timers = None if kind == timer_queue.FLINK else timer_queue.WindowTimers(kind, first, last)
        return EMPTY

    def fire(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        watermark = state_calls.long(batch, protocol.WATERMARK)
        try:
            fired = firing.fire(self.state, self.spec, watermark)
        except firing.UnflushedSlice as exc:
            raise WindowAggStateError(
                f"stage {self.name!r}: fire reached the slice ending {exc.end} before a flush handed it over; the"
                f" operator flushes at every advancing watermark and checkpoint barrier first, as stock Flink"
                f" does") from None
        # Values come one per emitted window, in the order of `emitted` (ascending timer indexes).
        emitted = fired.emitted_rows()
        values = [fired.column(i, aggregate.acc_arrow) for i, aggregate in enumerate(self.spec.aggregates)
                  if aggregate.emit]
        order = self._firing_order(watermark, fired)
        if order is not None:
            # The rows in the order the stage's queue fired their timers.
            permutation = np.argsort(order[emitted], kind="stable")
            emitted = emitted[permutation]
            values = [v.take(pa.array(permutation, pa.int64())) for v in values]
        rows = pa.array(emitted, pa.int64())
        ends = fired.end_column()[emitted]
        columns = [fired.key_column().take(rows), pa.array(ends, pa.int64())] + values
        columns += [self._window_property(p, t, ends) for p, t in
                    zip(self.spec.window_properties, self.spec.property_types)]
        # Windows fired empty (COUNT(*) at 0): their timers fire and emit nothing, as stock's; with the
        # stage's own queue they are gone from it already, and the JVM meets none of them.
        empty = fired.empty if self.timers is None else 0
        return state_calls.answer(pa.RecordBatch.from_arrays(columns, schema=self.fire_schema), empty=empty)

    def _firing_order(self, watermark: int, fired: firing.Fired) -> np.ndarray | None:
        """Each fired window's place in the order the stage's queue fires their timers (None while the
        JVM keeps Flink's timers); the queue registers the next window's timer as stock's firing does."""
        if self.timers is None:
            return None
        heap = self.timers.kind == timer_queue.HEAP
        ends = fired.end_column()
        follows = fired.follow_rows()
        if heap:
            key_ids = fired.key_id_column()
            ours, follow_keys = pa.array(key_ids, pa.int64()), key_ids[follows]
        else:
            ours = fired.key_column()
            follow_keys = ours.take(pa.array(follows, pa.int64()))
        queue_keys, queue_ends = self.timers.fire(watermark, self.spec.window.slide_ms, follow_keys, ends[follows])
        try:
            return timer_queue.firing_ranks(ours, ends, queue_keys, queue_ends)
        except timer_queue.TimerOrderError as exc:
            raise WindowAggStateError(f"stage {self.name!r}: at watermark {watermark}: {exc}") from None

    def _window_property(self, name: str, flink_type: types.DataType, ends: np.ndarray) -> pa.Array:
        """window_start/window_end: the shifted wall clock; window_time: end - 1 ms, as the instant
        (end - 1 - zone offset) when it is a TIMESTAMP_LTZ."""
        millis = {"window_start": windows.window_starts(ends, self.spec.window), "window_end": ends,
                  "window_time": ends - 1}[name]
        if name == "window_time" and flink_type.root == types.TIMESTAMP_LTZ:
            millis = millis - self.spec.window.zone_offset_ms
        return timestamps.from_parts(millis, np.zeros(len(millis), dtype=np.int32))

    def _require_flushed(self, slots: np.ndarray, call: str) -> None:
        waiting = np.isin(slots, np.array(self.state.pending, dtype=np.int64)) | self.state.in_buffer[slots]
        if waiting.any():
            raise WindowAggStateError(
                f"stage {self.name!r}: {call} reached window ending {int(self.state.window_end[slots[waiting][0]])}"
                f" before a flush handed it over; the operator flushes at every advancing watermark and checkpoint"
                f" barrier first, as stock Flink does")

    # -- snapshot and restore ----------------------------------------------------------------

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        state = self.state
        slots = state.live_slots()
        self._require_flushed(slots, "snapshot")
        slots = slots[np.argsort(state.key_group[slots], kind="stable")] if self.timers is None \
            else self._in_timer_order(slots)
        columns = [pa.array(state.key_group[slots], pa.int32()), state.keys(slots),
                   pa.array(state.window_end[slots], pa.int64()), pa.array(state.sliced[slots]),
                   pa.array(state.timer[slots])]
        columns += [field for column in state.accumulators for field in column.state(slots)]
        metadata = keyed_state.state_metadata(protocol.STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def _in_timer_order(self, slots: np.ndarray) -> np.ndarray:
        """`slots` by key group, within one those with a timer first, in the order the backend's
        checkpoint writes its timers (the heap queue's snapshot; a restore adds them in that order,
        as Flink's heap restore does), then the others in first-occurrence order. Fails when the
        queue and the slots' timers differ."""
        state = self.state
        timers = np.flatnonzero(state.timer)
        if len(self.timers) != len(timers):
            raise WindowAggStateError(f"stage {self.name!r}: its timer queue holds {len(self.timers)} timers but its"
                                      f" windows {len(timers)}; the window state and the timers disagree")
        rank = np.full(len(state.live), len(timers), dtype=np.int64)
        if self.timers.kind == timer_queue.HEAP and len(timers):
            key_ids, ends = self.timers.snapshot_order()
            queued = state.index.find(key_ids, ends)
            if (queued < 0).any() or not state.timer[queued].all():
                raise WindowAggStateError(f"stage {self.name!r}: its timer queue holds timers of windows it does not"
                                          f" hold; the window state and the timers disagree")
            rank[queued] = np.arange(len(queued))
        return slots[np.lexsort((rank[slots], state.key_group[slots]))]

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        self._check_state_format(batch)
        self._check_columns(batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, WindowAggStateError)
        ends = batch.column(WINDOW_END).to_numpy(zero_copy_only=False)
        keys = batch.column(specs.KEY)
        pairs = list(zip(keys.to_pylist(), ends.tolist()))
        if len(set(pairs)) != len(pairs) or self.state.held(keys, ends).any():
            raise WindowAggStateError(f"stage {self.name!r}: restored state holds a (key, window) twice")
        sliced = batch.column(SLICE).to_numpy(zero_copy_only=False)
        timer = batch.column(TIMER).to_numpy(zero_copy_only=False)
        if not (sliced | timer).all():
            raise WindowAggStateError(f"stage {self.name!r}: restored state holds an entry with neither a slice nor"
                                      f" a timer")
        slots = self.state.slots(keys, key_groups, ends)
        self.state.sliced[slots] = sliced
        self.state.timer[slots] = timer
        if self.timers is not None and timer.any():
            # In the order they come: the checkpoint wrote them as the backend writes its timers.
            timed = slots[timer]
            self.timers.restore(self._timer_keys(timed), self.state.key_group[timed], self.state.window_end[timed],
                                windows.triggers(self.state.window_end[timed], self.spec.window))
        names = iter(name for name, _ in state_fields(self.spec.aggregates))
        for column, aggregate in zip(self.state.accumulators, self.spec.aggregates):
            column.put(slots, [batch.column(next(names)) for _ in aggregate.acc_types])
        self._check_budget(batch)
        return EMPTY

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the window state",
                                 f"{self.state.entries} open (key, window) entries",
                                 self.state.nbytes(), batch)

    def _check_state_format(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_state_format(self.name, batch, protocol.STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       WindowAggStateError, "window aggregate",
                                       "keys, aggregates or window")

    def _check_columns(self, batch: pa.RecordBatch, schema: pa.Schema, call: str) -> None:
        keyed_state.check_columns(self.name, batch, schema, call)

def state_fields(aggregates: tuple[specs.Aggregate, ...]) -> list[tuple[str, types.DataType]]:
    """The state payload's accumulator columns: `$acc<i>` per aggregate, `$acc<i>.<j>` for an
    accumulator's further fields (AVG's count); the group aggregate's state uses the same."""
    return [(f"{ACC_PREFIX}{i}" + (f".{j}" if j else ""), t)
            for i, a in enumerate(aggregates) for j, t in enumerate(a.acc_types)]


def _partial_columns(aggregate: specs.Aggregate) -> list[str]:
    """The input columns of an aggregate's partial accumulator (phase global)."""
    return [aggregate.arg] if aggregate.count_arg is None else [aggregate.arg, aggregate.count_arg]


def operand(aggregate: specs.Aggregate, rows: pa.RecordBatch) -> pa.Array:
    """What phase single accumulates: a 1 per row (COUNT(*)), a 1 per non-NULL argument (COUNT),
    the argument (SUM, MIN, MAX, AVG); NULL, which every function skips, for a row its FILTER
    clause does not hold for (Flink's generated code accumulates only when the filter is TRUE)."""
    if aggregate.function == "count1":
        operand = pa.array(np.ones(rows.num_rows, dtype=np.int64))
    elif aggregate.function == "count":
        skipped = rows.column(aggregate.arg).is_null().to_numpy(zero_copy_only=False)
        operand = pa.array(np.ones(rows.num_rows, dtype=np.int64), mask=skipped)
    else:
        operand = rows.column(aggregate.arg)
    if aggregate.filter is None:
        return operand
    holds = pc.fill_null(rows.column(aggregate.filter), False)
    return pc.if_else(holds, operand, pa.nulls(rows.num_rows, operand.type))


register(KIND, WindowAggStage)
