"""The `group_agg` stage: the sidecar half of a non-windowed group aggregate.

The JVM operator keeps Flink's control flow (keys, watermarks, checkpoints) and sends the rows in
batches; the stage keeps every key's accumulators and answers each batch with the changelog
stock Flink's `GroupAggFunction` emits for its rows (`emission`). Calls, named in the request
schema's metadata as every stateful stage's are (`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (over an updating input each with its RowKind byte, `$kind`);
  answers `$row` (the batch row), `$kind` (RowKind byte) and the values of every row to emit, in
  emission order; with a `fused_encode` section, the sink's messages of those rows instead
  (`sidecar.fused_encode`).
- `snapshot` / `restore`: the state as Arrow rows, one per key (`$key_group`, `$key`, `$acc<i>` per
  aggregate and `$acc<i>.1` for AVG's and a retracting SUM's count, as the window aggregate's, then
  `$distinct<d>` per DISTINCT argument: the list of the key's values and their bitmasks,
  `distinct.ENTRIES`), grouped by key group, for Flink's raw keyed state; restore takes only key
  groups of the subtask's range, so rescaling needs nothing else.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats import types
from accelerator.groupagg import emission, spec as specs
from accelerator.groupagg.state import GroupAggState
from accelerator.exchange import key_rows
from accelerator.sidecar import fused_encode, keyed_state
from accelerator.sidecar.stages import register
from accelerator.windowagg.stage import operand, state_fields

KIND = "group_agg"
ROW, CHANGE, EMPTY = keyed_state.ROW, keyed_state.CHANGE, keyed_state.EMPTY
#: The state payload format this sidecar writes and reads (GroupAggStateFormat.VERSION in the jar);
#: 2 added the `$distinct<d>` columns.
STATE_FORMAT_VERSION = 2


class GroupAggStateError(ValueError):
    """State that cannot be restored into this stage."""


class GroupAggStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = GroupAggState(self.spec)
        self.state_schema = pa.schema(
            [pa.field(specs.KEY_GROUP, pa.int32(), nullable=False), pa.field(specs.KEY, pa.binary(), nullable=False)]
            + [pa.field(name, types.to_arrow(t), nullable=t.nullable) for name, t in state_fields(self.spec.aggregates)]
            + self.state.distinct.state_fields())
        self.answer_schema = pa.schema([pa.field(ROW, pa.int32(), nullable=False),
                                        pa.field(CHANGE, pa.int8(), nullable=False)] + list(self.spec.output_fields))
        self._key_types = [types.parse(f["type"]) for f in descriptor["output"]["fields"][:len(descriptor.get("keys", []))]]
        fused = fused_encode.of(self.name, descriptor, self._output_rows)
        self._calls = {"update": fused_encode.update(self.update, fused), "snapshot": self.snapshot,
                       "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        self._check_columns(batch, self.spec.input_schema, "update")
        key_groups = batch.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False)
        slots = self.state.slots(batch.column(specs.KEY), key_groups)
        operands = self.state.distinct.operands(batch, slots, key_groups,
                                                [operand(a, batch) for a in self.spec.aggregates])
        changes = emission.running_values(self.state.accumulators, [a.emit for a in self.spec.aggregates],
                                          [f.type for f in self.spec.output_fields], slots, operands,
                                          self._retractions(batch), self.state.live, self.spec.record_counter)
        self.state.free_emptied(slots)
        out = emission.emission(changes, emission.changed(changes.before, changes.after),
                                self.spec.generate_update_before)
        sources = pa.array(out.sources)
        columns = [pa.array(out.rows.astype(np.int32), pa.int32()), pa.array(out.kinds, pa.int8())]
        columns += [pa.concat_arrays([prev, new]).take(sources) for prev, new in zip(changes.before, changes.after)]
        self._check_budget(batch)
        return pa.RecordBatch.from_arrays(columns, schema=self.answer_schema)

    def _output_rows(self, batch: pa.RecordBatch, changes: pa.RecordBatch) -> list[pa.Array]:
        """The output rows stock emits (its key row joined with the values), as columns, for a fused encoding."""
        keys = key_rows.key_columns(batch.column(specs.KEY).take(changes.column(ROW)), self._key_types)
        return keys + changes.columns[2:]

    def _retractions(self, batch: pa.RecordBatch) -> np.ndarray:
        """Per row, whether it retracts (-U, -D); none of an insert-only input's rows do."""
        if not self.spec.updating:
            return np.zeros(batch.num_rows, dtype=bool)
        kinds = batch.column(specs.ROW_KIND).to_numpy(zero_copy_only=False)
        if ((kinds < emission.INSERT) | (kinds > emission.DELETE)).any():
            raise ValueError(f"stage {self.name!r}: a {specs.ROW_KIND} is no RowKind byte (0 to 3): {sorted(set(kinds))}")
        return (kinds == emission.UPDATE_BEFORE) | (kinds == emission.DELETE)

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        state = self.state
        slots = state.live_slots()
        slots = slots[np.argsort(state.key_group[slots], kind="stable")]
        columns = [pa.array(state.key_group[slots], pa.int32()), state.keys(slots)]
        columns += [field for column in state.accumulators for field in column.state(slots)]
        columns += state.distinct.snapshot(slots)
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(columns, schema=self.state_schema.with_metadata(metadata))

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        self._check_state_format(batch)
        self._check_columns(batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, GroupAggStateError)
        keys = batch.column(specs.KEY)
        keyed_state.check_new_keys(self.name, keys, self.state.holds, GroupAggStateError)
        slots = self.state.restored(keys, key_groups)
        names = iter(name for name, _ in state_fields(self.spec.aggregates))
        for column, aggregate in zip(self.state.accumulators, self.spec.aggregates):
            column.put(slots, [batch.column(next(names)) for _ in aggregate.acc_types])
        self.state.distinct.restore(batch, slots, key_groups,
                                    lambda reason: GroupAggStateError(f"stage {self.name!r}: {reason}"))
        self._check_budget(batch)
        return EMPTY

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the group aggregate's state", f"{self.state.entries} keys",
                                 self.state.nbytes(), batch)

    def _check_state_format(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       GroupAggStateError, "group aggregate",
                                       "keys or aggregates")

    def _check_columns(self, batch: pa.RecordBatch, schema: pa.Schema, call: str) -> None:
        keyed_state.check_columns(self.name, batch, schema, call)

register(KIND, GroupAggStage)
