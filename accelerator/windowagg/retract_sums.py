"""SUM over an input with retractions, with the arithmetic of Flink's `SumWithRetractAggFunction`.

The accumulator is two fields, `sum` (the SUM's result type, starting NULL) and `count` (BIGINT,
starting 0), the count of non-NULL operands held:

- accumulate: a NULL operand changes nothing; else `sum` takes the operand when NULL, else
  `sum + x` (as SUM's accumulate: TINYINT, SMALLINT, INT and BIGINT wrap, FLOAT and DOUBLE add in
  order, DECIMAL(38, s) turns NULL past 38 digits); `count + 1`.
- retract: a NULL operand changes nothing; else `0 - x` when `sum` is NULL, else `sum - x`
  (Java's `-`: wrapping, IEEE subtraction, DECIMAL NULL past 38 digits); `count - 1`.
- value: NULL when `count` is 0 (every operand retracted), else `sum`.

`sum` is a SUM accumulator column (`accumulators.AccumulatorColumn`), so the accumulate side is
the very fold the other SUMs use.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.windowagg import decimals
from accelerator.windowagg.operands import non_null
from accelerator.windowagg.segments import Runs
from accelerator.windowagg.spec import Aggregate


class SumWithRetractAccumulator:
    def __init__(self, aggregate: Aggregate, capacity: int = 0):
        from accelerator.windowagg.accumulators import AccumulatorColumn  # it imports this module

        self.sums = AccumulatorColumn(dataclasses.replace(aggregate, function="sum"), capacity)
        self.counts = np.zeros(capacity, dtype=np.int64)

    def grow(self, capacity: int) -> None:
        self.sums.grow(capacity)
        extra = capacity - len(self.counts)
        if extra > 0:
            self.counts = np.concatenate([self.counts, np.zeros(extra, dtype=np.int64)])

    def reset(self, slots: np.ndarray) -> None:
        """Fresh accumulators (`initialValuesExpressions`): sum NULL, count 0."""
        self.sums.reset(slots)
        self.counts[slots] = 0

    def fold(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Accumulates `operands[i]` into slot `slots[i]`, in order; NULL operands are ignored."""
        slots, operands = non_null(slots, operands)
        self.sums.fold(slots, operands)
        np.add.at(self.counts, slots, 1)

    def retract(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Retracts `operands[i]` from slot `slots[i]`, in order; NULL operands are ignored."""
        slots, operands = non_null(slots, operands)
        if len(slots) == 0:
            return
        sums = self.sums
        np.subtract.at(self.counts, slots, 1)
        if sums.root == "DECIMAL":
            for slot, x in zip(slots.tolist(), decimals.unscaled(operands)):
                total = (sums.values[slot] if sums.valid[slot] else 0) - x
                sums.values[slot], sums.valid[slot] = (total, True) if decimals.fits(total) else (0, False)
            return
        # A NULL sum is `0 - x`: from +0.0 for DOUBLE (the NULL sum is held as -0.0, see accumulators).
        for slot in slots:
            if not sums.valid[slot]:
                sums.values[slot], sums.valid[slot] = 0, True
        x = operands.to_numpy(zero_copy_only=False).astype(sums.values.dtype, copy=False)
        with np.errstate(all="ignore"):  # inf - inf is NaN, as in Java, without a warning
            np.subtract.at(sums.values, slots, x)  # integers wrap; floats are IEEE `-`, in order

    #: Insert-only batches run in one pass through the plain SUMs; this sum serves updating inputs.
    runs_in_one_pass = False

    @property
    def retracts_in_one_pass(self) -> bool:
        """Whether `signed_runs` can fold this sum (Java's integer types: wrapping sums, see `segments`)."""
        return self.sums.runs_in_one_pass

    def signed_runs(self, runs: Runs, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Adds and subtracts `operands` (sorted as `runs` sorts the rows, signed by it) run by
        run, as `fold` and `retract` do, and returns each sorted row's value before and after it.
        A NULL sum adds or subtracts from 0, as `x` and `0 - x` do, so the sum is one running
        total and turns valid at its first counted operand."""
        sums, segments, carried = self.sums, runs.segments, runs.carried
        slots = segments.slots
        present = operands.is_valid().to_numpy(zero_copy_only=False)
        x = pc.fill_null(operands, 0).to_numpy(zero_copy_only=False).astype(sums.values.dtype, copy=False)
        held = carried & sums.valid[slots]
        initial = np.where(held, sums.values[slots], 0).astype(sums.values.dtype)
        initial_counts = np.where(carried, self.counts[slots], 0).astype(np.int64)
        counted = present & (runs.signs != 0)
        with np.errstate(over="ignore"):
            total = segments.cumulative_sum(initial, x * runs.signs.astype(x.dtype))
            counts = segments.cumulative_sum(initial_counts, counted * runs.signs)
        valid = held[segments.seg] | segments.cumulative_any(counted)
        sums.values[runs.slots], sums.valid[runs.slots] = total[runs.ends], valid[runs.ends]
        self.counts[runs.slots] = counts[runs.ends]
        return (self._value_of(segments.before(total, initial), segments.before(valid, held),
                               segments.before(counts, initial_counts)),
                self._value_of(total, valid, counts))

    def _value_of(self, sums: np.ndarray, valid: np.ndarray, counts: np.ndarray) -> pa.Array:
        return self.sums._value_of(sums, valid & (counts != 0))

    def state(self, slots: np.ndarray) -> list[pa.Array]:
        """The accumulator fields of `slots` (sum, count), as checkpoints carry them."""
        return [self.sums.value(slots), pa.array(self.counts[slots], pa.int64())]

    def value(self, slots: np.ndarray) -> pa.Array:
        """`getValueExpression`: NULL when count is 0, else the sum."""
        return self._value_of(self.sums.values[slots], self.sums.valid[slots], self.counts[slots])

    def put(self, slots: np.ndarray, columns: list[pa.Array]) -> None:
        """Sets the accumulators of `slots` to the fields' values (restore)."""
        sums, counts = columns
        if counts.null_count:
            raise ValueError("a SUM's count is NULL in the restored state")
        self.sums.put(slots, [sums])
        self.counts[slots] = counts.to_numpy(zero_copy_only=False)

    def nbytes(self) -> int:
        return self.sums.nbytes() + self.counts.nbytes

