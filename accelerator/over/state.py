"""The OVER aggregate's state: per key a slot (`KeySlots`) with its accumulators (stock's
`accState`, made on the key's first firing) and the rows held until the watermark passes their
timestamp (stock's `inputState`), each with its timestamp and its arrival number, so a key's rows
of one timestamp keep their arrival order."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.over.spec import OverAggSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.windowagg import accumulators
from accelerator.windowagg.accumulators import AccumulatorColumn


class Sum0Accumulator(AccumulatorColumn):
    """$SUM0: SUM's fold from a fresh accumulator of 0 (+0.0 for DOUBLE), never NULL."""

    def reset(self, slots: np.ndarray) -> None:
        self.values[slots] = 0
        self.valid[slots] = True


class OverAggState:
    def __init__(self, spec: OverAggSpec):
        self.accumulators = [Sum0Accumulator(a) if zero else accumulators.for_aggregate(a)
                             for a, zero in zip(spec.aggregates, spec.zero_based)]
        #: Per slot, whether the key has accumulators (stock's `accState` is not null).
        self.live = np.zeros(0, dtype=bool)
        self.key_slots = KeySlots(self._grow)
        self.row_schema = spec.row_schema
        #: The held rows: one table, plus the batches held since it was last made one.
        self._rows = spec.row_schema.empty_table()
        self._pending: list[pa.Table] = []
        self.row_slots = np.zeros(0, dtype=np.int64)
        self.row_times = np.zeros(0, dtype=np.int64)
        self.row_arrivals = np.zeros(0, dtype=np.int64)
        self._arrivals = 0

    def _grow(self, capacity: int) -> None:
        for column in self.accumulators:
            column.grow(capacity)
        self.live = np.concatenate([self.live, np.zeros(capacity - len(self.live), dtype=bool)])

    @property
    def entries(self) -> int:
        """Held rows and keys with accumulators."""
        return len(self.row_slots) + int(self.live.sum())

    def nbytes(self) -> int:
        return (self.key_slots.nbytes() + self.live.nbytes + sum(c.nbytes() for c in self.accumulators)
                + self._rows.nbytes + sum(t.nbytes for t in self._pending) + 3 * self.row_slots.nbytes)

    @property
    def rows(self) -> pa.Table:
        """The held rows in holding order, one chunk per column."""
        if self._pending:
            self._rows = pa.concat_tables([self._rows] + self._pending).combine_chunks()
            self._pending = []
        return self._rows

    def hold(self, slots: np.ndarray, times: np.ndarray, rows: pa.Table) -> None:
        """Holds `rows` (in arrival order) of `slots` at `times` until a watermark passes them. The
        rows are copied: a request's buffers are the transport's, reused by the next call."""
        self._pending.append(rows.cast(self.row_schema).take(pa.array(np.arange(rows.num_rows))))
        self.row_slots = np.concatenate([self.row_slots, slots.astype(np.int64)])
        self.row_times = np.concatenate([self.row_times, times.astype(np.int64)])
        self.row_arrivals = np.concatenate([self.row_arrivals, self._arrivals + np.arange(len(slots))])
        self._arrivals += len(slots)

    def release(self, watermark: int) -> tuple[np.ndarray, pa.Table, np.ndarray, np.ndarray]:
        """Removes the rows at or before `watermark` and returns them sorted by key slot, then
        timestamp, then arrival: their slots, rows and timestamps, and where each (slot,
        timestamp) group starts."""
        due = self.row_times <= watermark
        picked = np.flatnonzero(due)
        order = picked[np.lexsort((self.row_arrivals[picked], self.row_times[picked], self.row_slots[picked]))]
        slots, times = self.row_slots[order], self.row_times[order]
        held = self.rows
        rows = held.take(pa.array(order))
        kept = np.flatnonzero(~due)
        self._rows = held.take(pa.array(kept))
        self.row_slots, self.row_times = self.row_slots[kept], self.row_times[kept]
        self.row_arrivals = self.row_arrivals[kept]
        starts = np.flatnonzero(np.r_[True, (slots[1:] != slots[:-1]) | (times[1:] != times[:-1])]) if len(order) \
            else np.zeros(0, dtype=np.int64)
        return slots, rows, times, starts
