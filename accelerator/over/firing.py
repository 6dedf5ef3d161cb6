"""What the timers of one watermark emit, computed for every due row at once.

Stock's `RowTimeUnboundedPrecedingOverFunctionV2` holds a key's rows by timestamp and registers
one event-time timer per (key, timestamp); each fired timer takes the key's accumulators (fresh
on its first firing), accumulates the rows of that timestamp in arrival order and emits each row
joined with the aggregate values: ROWS after each row, RANGE after all rows of the timestamp. A
key's timers fire in timestamp order, so for one key the accumulation runs over its due rows
sorted by timestamp, then arrival: the group aggregate's running values
(`groupagg.emission.running_values`, Java's arithmetic) over the rows sorted that way."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.groupagg import emission
from accelerator.over.spec import OverAggSpec
from accelerator.over.state import OverAggState
from accelerator.windowagg.stage import operand


def running(spec: OverAggSpec, state: OverAggState, slots: np.ndarray, rows: pa.Table,
            starts: np.ndarray) -> list[pa.Array]:
    """The aggregate values of each of `rows` (sorted by slot, timestamp, arrival; a (slot,
    timestamp) group beginning at each of `starts`), folding them into the slots' accumulators."""
    n = len(slots)
    if n == 0:
        return [pa.array([], f.type) for f in spec.value_fields]
    batch = pa.RecordBatch.from_arrays([c.combine_chunks() for c in rows.columns], schema=rows.schema)
    operands = [operand(a, batch) for a in spec.aggregates]
    changes = emission.running_values(state.accumulators, [True] * len(spec.aggregates),
                                      [f.type for f in spec.value_fields], slots, operands,
                                      np.zeros(n, dtype=bool), state.live, None)
    if spec.frame == "rows":
        return changes.after
    # RANGE: every row of a group shows the values after the group's last row.
    ends = np.r_[starts[1:], n] - 1
    last = np.repeat(ends, np.diff(np.r_[starts, n]))
    return [values.take(pa.array(last)) for values in changes.after]
