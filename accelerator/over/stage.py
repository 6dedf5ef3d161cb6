"""The `over_agg` stage: the sidecar half of an accelerated event-time OVER aggregate.

The JVM operator keeps Flink's control flow: it drops late rows, registers one event-time timer
per (key, timestamp) as stock's `RowTimeUnboundedPrecedingOverFunctionV2` does, and emits each
timer's rows when Flink's timer service fires it. The stage holds the rows and the accumulators.
Calls, named in the request schema's metadata as every stateful stage's are
(`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (`$key`, `$key_group`, `$time`, the input row), none late;
  they are held. Answers no rows.
- `fire` (metadata `accelerator.watermark`): removes every held row at or before the watermark and
  answers it with its aggregates (`firing.running`), sorted by key, timestamp and arrival:
  `$key`, `$time`, the input row, the aggregate values.
- `snapshot` / `restore`: the state as Arrow rows grouped by key group: `$key_group`, `$key`,
  `$time`, the row fields and the accumulator fields (`$acc<i>`); a held row has its `$time` and
  NULL accumulators, a key's accumulators a NULL `$time` and NULL row fields.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats import types
from accelerator.over import firing, spec as specs
from accelerator.over.state import OverAggState
from accelerator.sidecar import keyed_state, state_calls
from accelerator.sidecar.stages import register
from accelerator.windowagg.stage import state_fields

KIND = "over_agg"
EMPTY = keyed_state.EMPTY
WATERMARK = b"accelerator.watermark"
#: The state payload format this sidecar writes and reads (OverAggStateFormat.VERSION in the jar).
STATE_FORMAT_VERSION = 1


class OverAggStateError(ValueError):
    """State that cannot be restored into this stage."""


class OverAggStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = OverAggState(self.spec)
        self.acc_fields = [pa.field(n, types.to_arrow(t)) for n, t in state_fields(self.spec.aggregates)]
        self.state_schema = pa.schema(
            [pa.field(specs.KEY_GROUP, pa.int32(), nullable=False), pa.field(specs.KEY, pa.binary(), nullable=False),
             pa.field(specs.TIME, pa.int64())]
            + [f.with_nullable(True) for f in self.spec.row_schema] + self.acc_fields)
        self.answer_schema = pa.schema([pa.field(specs.KEY, pa.binary(), nullable=False),
                                        pa.field(specs.TIME, pa.int64(), nullable=False)]
                                       + list(self.spec.row_schema) + list(self.spec.value_fields))
        self._calls = {"update": self.update, "fire": self.fire, "snapshot": self.snapshot,
                       "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        key_groups = batch.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False)
        slots, _ = self.state.key_slots.slots(batch.column(specs.KEY), key_groups)
        rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names)
        self.state.hold(slots, batch.column(specs.TIME).to_numpy(zero_copy_only=False), rows)
        self._check_budget(batch)
        return EMPTY

    def fire(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        watermark = state_calls.long(batch, WATERMARK)
        slots, rows, times, starts = self.state.release(watermark)
        values = firing.running(self.spec, self.state, slots, rows, starts)
        columns = [self.state.key_slots.keys(slots), pa.array(times, pa.int64())]
        columns += [c.combine_chunks() for c in rows.columns] + values
        return pa.RecordBatch.from_arrays(columns, schema=self.answer_schema)

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        state = self.state
        live = state.key_slots.live_slots()
        acc_slots = live[state.live[live]]
        held = np.lexsort((state.row_arrivals, state.row_times, state.row_slots))
        slots = np.concatenate([acc_slots, state.row_slots[held]])
        n_acc = len(acc_slots)
        order = np.argsort(state.key_slots.key_group[slots], kind="stable")
        times = np.concatenate([np.zeros(n_acc, dtype=np.int64), state.row_times[held]])
        time_valid = np.r_[np.zeros(n_acc, dtype=bool), np.ones(len(held), dtype=bool)]
        columns = [pa.array(state.key_slots.key_group[slots], pa.int32()), state.key_slots.keys(slots),
                   pa.array(times, pa.int64(), mask=~time_valid)]
        held_rows = state.rows.take(pa.array(held))
        for field, column in zip(self.spec.row_schema, held_rows.columns):
            columns.append(pa.concat_arrays([pa.nulls(n_acc, field.type), column.combine_chunks()]))
        accs = [field for column in state.accumulators for field in column.state(acc_slots)]
        for field, acc in zip(self.acc_fields, accs):
            columns.append(pa.concat_arrays([acc.cast(field.type), pa.nulls(len(held), field.type)]))
        columns = [c.take(pa.array(order)) for c in columns]
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       OverAggStateError, "OVER aggregate", "keys, frame, aggregates or row")
        keyed_state.check_columns(self.name, batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, OverAggStateError)
        is_row = batch.column(specs.TIME).is_valid().to_numpy(zero_copy_only=False)
        keys = batch.column(specs.KEY)
        acc_rows = pa.array(np.flatnonzero(~is_row))
        acc_keys = keys.take(acc_rows)
        keyed_state.check_new_keys(self.name, acc_keys,
                                   lambda k: self.state.key_slots.holds(k) and self._live(k), OverAggStateError)
        slots, _ = self.state.key_slots.slots(keys, key_groups)
        acc_slots = slots[~is_row]
        self.state.live[acc_slots] = True
        names = iter(f.name for f in self.acc_fields)
        for column, aggregate in zip(self.state.accumulators, self.spec.aggregates):
            column.put(acc_slots, [batch.column(next(names)).take(acc_rows) for _ in aggregate.acc_types])
        held = np.flatnonzero(is_row)
        rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names).take(pa.array(held))
        self.state.hold(slots[held], batch.column(specs.TIME).to_numpy(zero_copy_only=False)[held], rows)
        self._check_budget(batch)
        return EMPTY

    def _live(self, key: bytes) -> bool:
        slots, _ = self.state.key_slots.slots(pa.array([key], pa.binary()), np.zeros(1, dtype=np.int32))
        return bool(self.state.live[slots[0]])

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the OVER aggregate's state",
                                 f"{len(self.state.row_slots)} held rows", self.state.nbytes(), batch)


register(KIND, OverAggStage)
