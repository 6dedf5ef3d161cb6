"""The `deduplicate` stage: the sidecar half of an accelerated deduplication.

The JVM operator keeps Flink's control flow (keys, watermarks, checkpoints) and sends the rows in
batches; the stage keeps every key's state and answers each batch with what stock Flink's
deduplicate function emits for its rows (`choice`). Calls, named in the request schema's metadata
as every stateful stage's are (`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (`$key`, `$key_group`, the row); answers `$row` (the batch row),
  `$kind` (RowKind byte) and the row's fields of every row to emit, in emission order.
- `snapshot` / `restore`: the state as Arrow rows (`$key_group`, `$key`, then, unless it keeps a
  flag only, `$kind` and the kept row's fields), grouped by key group, for Flink's raw keyed state;
  restore takes only key groups of the subtask's range, so rescaling needs nothing else.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.dedup import choice, spec as specs
from accelerator.dedup.state import DedupState
from accelerator.sidecar import fused_encode, keyed_state
from accelerator.sidecar.stages import register

KIND = "deduplicate"
ROW, CHANGE, EMPTY = keyed_state.ROW, keyed_state.CHANGE, keyed_state.EMPTY
#: The state payload format this sidecar writes and reads (DedupStateFormat.VERSION in the jar).
STATE_FORMAT_VERSION = 1


class DedupStateError(ValueError):
    """State that cannot be restored into this stage."""


class DedupStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = DedupState(self.spec)
        key_fields = [pa.field(specs.KEY_GROUP, pa.int32(), nullable=False),
                      pa.field(specs.KEY, pa.binary(), nullable=False)]
        row_fields = [pa.field(CHANGE, pa.int8(), nullable=False)] + list(self.spec.row_schema)
        self.state_schema = pa.schema(key_fields + (row_fields if self.spec.keeps_rows else []))
        self.answer_schema = pa.schema([pa.field(ROW, pa.int32(), nullable=False),
                                        pa.field(CHANGE, pa.int8(), nullable=False)] + list(self.spec.row_schema))
        # Its output rows are the answer's values: a fused encoding encodes them as they are.
        fused = fused_encode.of(self.name, descriptor, lambda batch, changes: changes.columns[2:])
        self._calls = {"update": fused_encode.update(self.update, fused), "snapshot": self.snapshot,
                       "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names)
        if self.spec.stateless:
            slots = np.zeros(0, dtype=np.int64)
        else:
            key_groups = batch.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False)
            slots, _ = self.state.key_slots.slots(batch.column(specs.KEY), key_groups)
        out = choice.choose(self.spec, self.state, slots, rows)
        values = self.state.rows.take_with(rows, out.sources)
        if self.spec.keeps_rows:
            self.state.keep(rows, np.unique(slots))
        columns = [pa.array(out.rows.astype(np.int32), pa.int32()), pa.array(out.kinds, pa.int8())]
        columns += [c.combine_chunks() for c in values.columns]
        self._check_budget(batch)
        return pa.RecordBatch.from_arrays(columns, schema=self.answer_schema)

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        state = self.state
        slots = state.key_slots.live_slots()
        slots = slots[np.argsort(state.key_slots.key_group[slots], kind="stable")]
        columns = [pa.array(state.key_slots.key_group[slots], pa.int32()), state.key_slots.keys(slots)]
        if self.spec.keeps_rows:
            columns.append(pa.array(state.kept_kind[slots], pa.int8()))
            columns += [c.combine_chunks() for c in state.kept_rows(slots).columns]
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       DedupStateError, "deduplication", "keys, order or kept row")
        keyed_state.check_columns(self.name, batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, DedupStateError)
        keys = batch.column(specs.KEY)
        keyed_state.check_new_keys(self.name, keys, self.state.key_slots.holds, DedupStateError)
        slots, _ = self.state.key_slots.slots(keys, key_groups)
        if not self.spec.keeps_rows:
            self.state.present[slots] = True
        else:
            rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names)
            self.state.kept[slots] = self.state.rows.num_rows + np.arange(len(slots))
            self.state.kept_kind[slots] = batch.column(CHANGE).to_numpy(zero_copy_only=False)
            if self.spec.rowtime is not None:
                self.state.kept_rowtime[slots] = choice.rowtimes(self.spec, rows)
            self.state.keep(rows, np.unique(slots))
        self._check_budget(batch)
        return EMPTY

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the deduplication's state", f"{self.state.entries} keys",
                                 self.state.nbytes(), batch)


register(KIND, DedupStage)
