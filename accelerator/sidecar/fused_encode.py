"""A keyed stage that encodes its sink's messages in the same call (the descriptor's `fused_encode`
section): the planner folded the encode stage that was the operator's only consumer into the
operator (docs/architecture.md, "Encoding fused into stateful operators"), so instead of the
changelog rows, an `update` answers the messages the encode stage would have written for them.

The rows go through the encode stage's own code (`encode_stage.EncodeStage`, opened on the
section, which is that stage's descriptor), as the rows the JVM operator would have emitted: the
stage says how to make them from its batch and its changelog answer (`rows_of`; a group aggregate
puts each row's key fields, read from its `$key` bytes, before the values). The answer is `$kind`,
each message's RowKind byte (the kind of the row it encodes, as the encode stage's operator gives
it), then the encode stage's columns: value bytes, key bytes when the sink writes keys, the written
metadata.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.sidecar import encode_stage, keyed_state  # the modules: encode_stage imports the stages

SECTION = "fused_encode"
#: The option that turns the fusion off, named by every error it causes.
OPTION = "accelerator.encode-stages.fused.enabled"

#: The rows the encode stage takes (its input fields' arrays, in order) from an update batch and
#: the stage's changelog answer to it.
RowsOf = Callable[[pa.RecordBatch, pa.RecordBatch], list[pa.Array]]


class FusedEncode:
    def __init__(self, stage: str | None, section: dict, rows_of: RowsOf):
        self._stage = stage
        self._encode = encode_stage.EncodeStage(section)
        self._names = self._encode.input_names
        self._rows_of = rows_of
        self.schema = pa.schema([pa.field(keyed_state.CHANGE, pa.int8(), nullable=False)] + list(self._encode.schema))

    def answer(self, batch: pa.RecordBatch, changes: pa.RecordBatch) -> pa.RecordBatch:
        """The messages of the changelog rows `changes` (the stage's answer to `batch`), in order."""
        if changes.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=self.schema)
        try:
            columns = self._rows_of(batch, changes)
        except ValueError as e:
            raise ValueError(f"stage {self._stage!r}: cannot make the rows its sink encodes: {e}; run the job with"
                             f" {OPTION}: false") from e
        messages = self._encode.process(pa.RecordBatch.from_arrays(columns, names=self._names))
        kinds = changes.column(keyed_state.CHANGE)
        if messages.num_rows != changes.num_rows:
            # Only a filtering Calc of an insert-only sink drops rows; every message is then an INSERT.
            if np.any(kinds.to_numpy(zero_copy_only=False) != 0):
                raise ValueError(f"stage {self._stage!r}: {changes.num_rows} changelog rows, some of them updates or"
                                 f" deletes, gave {messages.num_rows} messages; each must give one message to carry"
                                 f" its change kind; run the job with {OPTION}: false")
            kinds = pa.array(np.zeros(messages.num_rows, dtype=np.int8))
        return pa.RecordBatch.from_arrays([kinds] + messages.columns, schema=self.schema)


def of(stage: str | None, descriptor: dict, rows_of: RowsOf) -> FusedEncode | None:
    """The fused encoding the descriptor asks for, or None (the stage answers its changelog rows)."""
    section = descriptor.get(SECTION)
    return None if section is None else FusedEncode(stage, section, rows_of)


def update(call: Callable[[pa.RecordBatch], pa.RecordBatch], fused: FusedEncode | None):
    """The `update` call of a stage: `call` itself, or its answer encoded by `fused`."""
    if fused is None:
        return call
    return lambda batch: fused.answer(batch, call(batch))
