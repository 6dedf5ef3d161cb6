"""The `top_n` stage: the sidecar half of an accelerated Top-N.

The JVM operator keeps Flink's control flow (keys, watermarks, checkpoints) and sends the rows in
batches; the stage keeps every key's top rows and answers each batch with what stock Flink's
AppendOnlyTopNFunction emits for its rows (`topn`). Calls, named in the request schema's metadata
as every stateful stage's are (`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (`$key`, `$key_group`, the row); answers `$row` (the batch row),
  `$kind` (RowKind byte) and the output row (the row, then its row number when selected) of every
  row to emit, in emission order.
- `snapshot` / `restore`: the state as Arrow rows (`$key_group`, `$key`, `$place`, the row), one
  per top row of a key in rank order, grouped by key group, for Flink's raw keyed state; restore
  takes only key groups of the subtask's range, so rescaling needs nothing else.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.rank import spec as specs, topn
from accelerator.rank.state import TopNState
from accelerator.sidecar import fused_encode, keyed_state
from accelerator.sidecar.stages import register

KIND = "top_n"
ROW, CHANGE, EMPTY = keyed_state.ROW, keyed_state.CHANGE, keyed_state.EMPTY
#: A state row's place among its key's top rows (0 for the first).
PLACE = "$place"
#: The state payload format this sidecar writes and reads (RankStateFormat.VERSION in the jar).
STATE_FORMAT_VERSION = 1


class TopNStateError(ValueError):
    """State that cannot be restored into this stage."""


class TopNStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = TopNState(self.spec)
        self.state_schema = pa.schema([pa.field(specs.KEY_GROUP, pa.int32(), nullable=False),
                                       pa.field(specs.KEY, pa.binary(), nullable=False),
                                       pa.field(PLACE, pa.int32(), nullable=False)] + list(self.spec.row_schema))
        self.answer_schema = pa.schema([pa.field(ROW, pa.int32(), nullable=False),
                                        pa.field(CHANGE, pa.int8(), nullable=False)] + list(self.spec.output_schema))
        # Its output rows are the answer's values: a fused encoding encodes them as they are.
        fused = fused_encode.of(self.name, descriptor, lambda batch, changes: changes.columns[2:])
        self._calls = {"update": fused_encode.update(self.update, fused), "snapshot": self.snapshot,
                       "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names)
        key_groups = batch.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False)
        slots, _ = self.state.key_slots.slots(batch.column(specs.KEY), key_groups)
        out = topn.choose(self.spec, self.state, slots, rows)
        values = self.state.rows.take_with(rows, out.sources)
        self.state.keep(rows, out.touched)
        columns = [pa.array(out.rows.astype(np.int32), pa.int32()), pa.array(out.kinds, pa.int8())]
        columns += [c.combine_chunks() for c in values.columns]
        if self.spec.output_rank_number:
            columns.append(pa.array(out.ranks, pa.int64()))
        self._check_budget(batch)
        return pa.RecordBatch.from_arrays(columns, schema=self.answer_schema)

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        state = self.state
        slots = state.key_slots.live_slots()
        slots = slots[np.argsort(state.key_slots.key_group[slots], kind="stable")]
        counts = state.count[slots]
        each = np.repeat(slots, counts)
        places = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = state.rows.take(state.top[each, places])
        columns = [pa.array(state.key_slots.key_group[each], pa.int32()), state.key_slots.keys(each),
                   pa.array(places, pa.int32())] + [c.combine_chunks() for c in rows.columns]
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       TopNStateError, "Top-N", "keys, order, N or row")
        keyed_state.check_columns(self.name, batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, TopNStateError)
        keys = batch.column(specs.KEY)
        places = batch.column(PLACE).to_numpy(zero_copy_only=False).astype(np.int64)
        firsts = np.flatnonzero(places == 0)
        keyed_state.check_new_keys(self.name, keys.take(pa.array(firsts)), self.state.key_slots.holds,
                                   TopNStateError)
        if len(pc.unique(keys)) != len(firsts) or places.max(initial=0) >= self.spec.rank_end:
            raise TopNStateError(f"stage {self.name!r}: restored state holds a key without its first top row, or"
                                 f" more than N = {self.spec.rank_end} rows for a key")
        slots, _ = self.state.key_slots.slots(keys, key_groups)
        rows = pa.Table.from_batches([batch]).select(self.spec.row_schema.names)
        self.state.top[slots, places] = self.state.rows.num_rows + np.arange(len(slots))
        np.maximum.at(self.state.count, slots, places + 1)
        self.state.keep(rows, np.unique(slots))
        self._check_budget(batch)
        return EMPTY

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the Top-N's state", f"{self.state.entries} keys",
                                 self.state.nbytes(), batch)


register(KIND, TopNStage)
