"""The `window_join` stage: the sidecar half of an accelerated window join.

The JVM operator keeps Flink's control flow: it drops late rows (their window fired at the
current watermark), registers each row's window timer on Flink's timer service as stock does, and
emits a firing's rows from those timers, so records, watermarks and the order of windows are
stock's. The stage holds the rows. Calls, named in the request schema's metadata as every stateful
stage's are (`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (`$key`, `$key_group`, `$side`, `$window_end`, `$trigger`, then
  the joined row's fields with the other input's left NULL); held, nothing answered.
- `fire`: every held row whose window's timer fires at the watermark leaves the state, and the
  answer holds the window's output as stock emits it (`emission`), `$key` and `$window_end` first,
  each window's rows together; its metadata counts the windows fired (each is one of Flink's timers).
- `snapshot` / `restore`: the held rows by key group, each key group's in arrival order, for
  Flink's raw keyed state; a restore takes only key groups of the subtask's range.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.join.condition import open_condition
from accelerator.sidecar import keyed_state, state_calls
from accelerator.sidecar.stages import register
from accelerator.windowjoin import emission, spec as specs
from accelerator.windowjoin.spec import KEY, KEY_GROUP, LEFT, RIGHT, SIDE, WINDOW_END
from accelerator.windowjoin.state import HeldRows

KIND = "window_join"
EMPTY = keyed_state.EMPTY
#: fire: the watermark the timers advance to.
WATERMARK = b"accelerator.watermark"
#: The state payload format this sidecar writes and reads (WindowJoinStateFormat.VERSION in the jar).
STATE_FORMAT_VERSION = 1


class WindowJoinStateError(ValueError):
    """State that cannot be restored into this stage."""


class WindowJoinStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.held = HeldRows(self.spec.input_schema)
        self.condition = open_condition(self.name, self.spec.condition, self.spec.joined_schema)
        self.answer_schema = pa.schema([pa.field(KEY, pa.binary(), nullable=False),
                                        pa.field(WINDOW_END, pa.int64(), nullable=False)]
                                       + list(self.spec.output_schema))
        self._calls = {"update": self.update, "fire": self.fire, "snapshot": self.snapshot, "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.held, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        sides = batch.column(SIDE).to_numpy(zero_copy_only=False)
        if len(sides) and not np.isin(sides, (LEFT, RIGHT)).all():
            raise WindowJoinStateError(f"stage {self.name!r}: a row's {SIDE} is neither {LEFT} (left input) nor"
                                       f" {RIGHT} (right input)")
        self.held.add(pa.Table.from_batches([batch]))
        self._check_budget(batch)
        return EMPTY

    def fire(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        fired = self.held.take_fired(state_calls.long(batch, WATERMARK))
        if fired.num_rows == 0:
            return state_calls.answer(pa.RecordBatch.from_pylist([], schema=self.answer_schema), fired_windows=0)
        groups, count = self._groups(fired)
        sides = fired.column(SIDE).to_numpy().astype(np.int64)
        left, right = emission.candidates(groups, sides, count)
        matched = ~self.spec.null_keyed(fired, sides)[left]
        if self.condition is not None and len(left):
            matched &= self.condition.holds(self._joined(fired, left, right))
        out = emission.emit(self.spec.join_type, groups, sides, left, right, matched)
        row = np.where(out.left != emission.NULL, out.left, out.right)
        at = pa.array(row, pa.int64())
        columns = [fired.column(KEY).take(at), fired.column(WINDOW_END).take(at)]
        columns += self._side_values(fired, LEFT, out.left)
        if not self.spec.semi_anti:
            columns += self._side_values(fired, RIGHT, out.right)
        answer = pa.RecordBatch.from_arrays([c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c
                                             for c in columns], schema=self.answer_schema)
        return state_calls.answer(answer, fired_windows=count)

    @staticmethod
    def _groups(fired: pa.Table) -> tuple[np.ndarray, int]:
        """Each fired row's (key, window end) as a number from 0, and how many there are."""
        codes = pc.dictionary_encode(fired.column(KEY)).combine_chunks().indices.to_numpy()
        ends = fired.column(WINDOW_END).to_numpy()
        order = np.lexsort((ends, codes))
        new = np.ones(len(order), dtype=bool)
        new[1:] = (np.diff(codes[order]) != 0) | (np.diff(ends[order]) != 0)
        groups = np.empty(len(order), dtype=np.int64)
        groups[order] = np.cumsum(new) - 1
        return groups, int(new.sum())

    def _side_values(self, fired: pa.Table, side: int, rows: np.ndarray) -> list[pa.ChunkedArray]:
        """One input's fields of the output rows: its rows at `rows`, NULLs where emission.NULL."""
        at = pa.array(rows, pa.int64(), mask=rows == emission.NULL)
        return [fired.column(name).take(at) for name in self.spec.side_schema(side).names]

    def _joined(self, fired: pa.Table, left: np.ndarray, right: np.ndarray) -> pa.RecordBatch:
        columns = self._side_values(fired, LEFT, left) + self._side_values(fired, RIGHT, right)
        return pa.RecordBatch.from_arrays([c.combine_chunks() for c in columns], schema=self.spec.joined_schema)

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        table = self.held.by_key_group(KEY_GROUP)
        metadata = keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint)
        if table.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=self.spec.input_schema.with_metadata(metadata))
        return table.combine_chunks().to_batches()[0].replace_schema_metadata(metadata)

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_state_format(self.name, batch, STATE_FORMAT_VERSION, self.spec.fingerprint,
                                       WindowJoinStateError, "window join", "keys, windows or either input's row")
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "restore")
        keyed_state.restored_key_groups(self.name, batch, WindowJoinStateError)
        self.held.add(pa.Table.from_batches([batch]))
        self._check_budget(batch)
        return EMPTY

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        keyed_state.check_budget(self.name, "the window join's held rows", f"{self.held.entries} rows",
                                 self.held.nbytes(), batch)


register(KIND, WindowJoinStage)
