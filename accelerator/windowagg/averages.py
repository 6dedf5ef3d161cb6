"""AVG's accumulator, with the arithmetic of Flink's `AvgAggFunction` and its generated code.

The accumulator is two fields, `sum` and `count`, that start at 0 (never NULL):

- accumulate: a NULL operand changes nothing; else `sum + x` and `count + 1`.
- retract (a group aggregate over an updating input): a NULL operand changes nothing; else
  `sum - x` (`aggDecimalMinus` for DECIMAL: NULL past 38 digits, a NULL sum stays NULL) and
  `count - 1`.
- merge (phase global, firing a window from its slices): `sum + sum'`, `count + count'`.
- value: NULL when `count` is 0, else `sum / count` cast to the result type.

The sum is a BIGINT for TINYINT to BIGINT arguments (Java `long` `+`, wrapping; the value is the
truncating `long` division, narrowed as Java's cast narrows), a DOUBLE for FLOAT and DOUBLE (in
order from +0.0; the value is the double quotient, rounded to float for FLOAT) and DECIMAL(38, s)
for DECIMAL(p, s): `aggDecimalPlus` gives NULL past 38 digits and a NULL sum stays NULL (NULL +
x); the value is `DecimalDataUtils.divide`: the quotient to 38 significant digits, HALF_UP, then
to the result's scale max(6, s), HALF_UP, NULL past 38 digits.
"""

from __future__ import annotations

import decimal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.windowagg import decimals
from accelerator.windowagg.operands import non_null
from accelerator.windowagg.segments import Runs, Segments
from accelerator.windowagg.spec import Aggregate

#: `DecimalDataUtils`' division context (MathContext(38, HALF_UP)).
_DIVIDE = decimal.Context(prec=38, rounding=decimal.ROUND_HALF_UP)
#: Exact arithmetic for scaling and rounding values of up to 38 digits.
_EXACT = decimal.Context(prec=100, rounding=decimal.ROUND_HALF_UP, Emin=-999, Emax=999)


class AverageAccumulator:
    """AVG's accumulators, one per state slot: `sums` (int64, float64 or Python ints of the
    unscaled DECIMAL; `sum_valid` False where the sum is NULL: a DECIMAL overflow, or a NULL
    partial sum merged) and `counts`."""

    def __init__(self, aggregate: Aggregate, capacity: int = 0):
        self.sum_type = aggregate.acc
        self.sum_arrow = aggregate.acc_arrow
        self.result = aggregate.result
        self.result_arrow = aggregate.result_arrow
        self.decimal = self.sum_type.root == "DECIMAL"
        self.sums = np.empty(0, dtype=object if self.decimal else
                             (np.int64 if self.sum_type.root == "BIGINT" else np.float64))
        self.sum_valid = np.empty(0, dtype=bool)
        self.counts = np.empty(0, dtype=np.int64)
        self.grow(capacity)

    def grow(self, capacity: int) -> None:
        extra = capacity - len(self.counts)
        if extra > 0:
            self.sums = np.concatenate([self.sums, np.zeros(extra, dtype=self.sums.dtype)])
            self.sum_valid = np.concatenate([self.sum_valid, np.ones(extra, dtype=bool)])
            self.counts = np.concatenate([self.counts, np.zeros(extra, dtype=np.int64)])

    def reset(self, slots: np.ndarray) -> None:
        """Fresh accumulators (`initialValuesExpressions`): sum 0 (+0.0), count 0."""
        self.sums[slots] = 0
        self.sum_valid[slots] = True
        self.counts[slots] = 0

    def fold(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Accumulates `operands[i]` into slot `slots[i]`, in order; NULL operands are ignored."""
        slots, operands = non_null(slots, operands)
        if len(slots) == 0:
            return
        self._add_sums(slots, operands)
        np.add.at(self.counts, slots, 1)

    def retract(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Retracts `operands[i]` from slot `slots[i]`, in order; NULL operands are ignored."""
        slots, operands = non_null(slots, operands)
        if len(slots) == 0:
            return
        np.subtract.at(self.counts, slots, 1)
        if not self.decimal:
            x = operands.to_numpy(zero_copy_only=False).astype(self.sums.dtype, copy=False)
            with np.errstate(all="ignore"):  # inf - inf is NaN, as in Java, without a warning
                np.subtract.at(self.sums, slots, x)  # int64 wraps as Java's long -; float64 is IEEE `-`
            return
        sums, valid = self.sums, self.sum_valid
        for slot, x in zip(slots.tolist(), decimals.unscaled(operands)):
            if valid[slot]:
                total = sums[slot] - x
                sums[slot], valid[slot] = (total, True) if decimals.fits(total) else (0, False)

    def merge(self, slots: np.ndarray, partials: list[pa.Array]) -> None:
        """Merges partial accumulators (sum, count) into `slots`, in order; a NULL partial sum
        (an overflowed DECIMAL) makes the sum NULL."""
        if len(slots) == 0:
            return
        sums, counts = partials
        if sums.null_count:
            self.sum_valid[slots[sums.is_null().to_numpy(zero_copy_only=False)]] = False
            sums = pc.fill_null(sums, 0)
        self._add_sums(slots, sums)
        np.add.at(self.counts, slots, counts.to_numpy(zero_copy_only=False).astype(np.int64, copy=False))

    def merge_from(self, other: "AverageAccumulator", slots: np.ndarray) -> None:
        self.merge(slots, other.state(slots))

    def _add_sums(self, slots: np.ndarray, operands: pa.Array) -> None:
        if not self.decimal:
            x = operands.to_numpy(zero_copy_only=False).astype(self.sums.dtype, copy=False)
            with np.errstate(all="ignore"):  # inf - inf is NaN, as in Java, without a warning
                np.add.at(self.sums, slots, x)  # int64 wraps as Java's long +; float64 adds in order
            return
        sums, valid = self.sums, self.sum_valid
        for slot, x in zip(slots.tolist(), decimals.unscaled(operands)):
            if valid[slot]:
                total = sums[slot] + x
                if decimals.fits(total):
                    sums[slot] = total
                else:
                    sums[slot], valid[slot] = 0, False

    # -- Arrow -------------------------------------------------------------------------------

    def state(self, slots: np.ndarray) -> list[pa.Array]:
        """The accumulator fields of `slots` (sum, count), as checkpoints and partials carry them."""
        valid = self.sum_valid[slots]
        if self.decimal:
            sums = decimals.from_unscaled(self.sums[slots].tolist(), valid, self.sum_arrow)
        else:
            sums = pa.array(self.sums[slots], type=self.sum_arrow, mask=None if valid.all() else ~valid)
        return [sums, pa.array(self.counts[slots], pa.int64())]

    def value(self, slots: np.ndarray) -> pa.Array:
        """`getValueExpression`: NULL at count 0, else sum / count as the result type."""
        return self._value_of(self.sums[slots], self.counts[slots], self.sum_valid[slots])

    def _value_of(self, sums: np.ndarray, counts: np.ndarray, sum_valid: np.ndarray) -> pa.Array:
        valid = (counts != 0) & sum_valid
        divisors = np.where(valid, counts, 1)
        if self.decimal:
            scale, result_scale = self.sum_type.scale, self.result.scale
            quotients = [_decimal_quotient(s, c, scale, result_scale) if ok else None
                         for s, c, ok in zip(sums.tolist(), divisors.tolist(), valid.tolist())]
            valid &= np.array([q is not None for q in quotients], dtype=bool)
            return decimals.from_unscaled([q or 0 for q in quotients], valid, self.result_arrow)
        with np.errstate(all="ignore"):  # Long.MIN_VALUE / -1 wraps, x / 0.0 is infinite, as in Java
            if self.sum_type.root == "BIGINT":
                floor = sums // divisors
                # Java's long division truncates toward zero; numpy's // floors.
                quotients = floor + ((sums - floor * divisors != 0) & ((sums < 0) != (divisors < 0)))
            else:
                quotients = sums / divisors
        values = quotients.astype(self.result_arrow.to_pandas_dtype())  # Java's narrowing cast
        return pa.array(values, type=self.result_arrow, mask=None if valid.all() else ~valid)

    # -- running values (a group aggregate's insert-only rows) ---------------------------------

    @property
    def runs_in_one_pass(self) -> bool:
        """Whether `runs` can fold this average's operands (a BIGINT sum only, see `segments`)."""
        return self.sum_type.root == "BIGINT"

    def runs(self, segments: Segments, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Folds `operands` (sorted as `segments` sorts the rows) into their slots, as `fold`
        does, and returns each sorted row's value before and after it. A BIGINT sum never turns
        NULL, so only sums and counts run."""
        present = operands.is_valid().to_numpy(zero_copy_only=False)
        x = pc.fill_null(operands, 0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        slots = segments.slots
        initial_sums, initial_counts, sum_valid = self.sums[slots], self.counts[slots], self.sum_valid[slots]
        sums = segments.cumulative_sum(initial_sums, x)  # NULL operands were filled with 0
        counts = segments.cumulative_sum(initial_counts, present.astype(np.int64))
        self.sums[slots], self.counts[slots] = sums[segments.ends], counts[segments.ends]
        valid = sum_valid[segments.seg]
        return (self._value_of(segments.before(sums, initial_sums), segments.before(counts, initial_counts), valid),
                self._value_of(sums, counts, valid))

    @property
    def retracts_in_one_pass(self) -> bool:
        """Whether `signed_runs` can fold this average over an updating input (a BIGINT sum)."""
        return self.runs_in_one_pass

    def signed_runs(self, runs: Runs, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Adds and subtracts `operands` (sorted as `runs` sorts the rows, signed by it) run by
        run, as `fold` and `retract` do, and returns each sorted row's value before and after it."""
        present = operands.is_valid().to_numpy(zero_copy_only=False).astype(np.int64)
        x = pc.fill_null(operands, 0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        segments, carried = runs.segments, runs.carried
        slots = segments.slots
        initial_sums = np.where(carried, self.sums[slots], 0).astype(np.int64)
        initial_counts = np.where(carried, self.counts[slots], 0).astype(np.int64)
        valid = np.where(carried, self.sum_valid[slots], True)[segments.seg]  # a BIGINT sum never turns NULL
        with np.errstate(over="ignore"):
            sums = segments.cumulative_sum(initial_sums, x * runs.signs)
            counts = segments.cumulative_sum(initial_counts, present * runs.signs)
        self.sums[runs.slots], self.counts[runs.slots] = sums[runs.ends], counts[runs.ends]
        self.sum_valid[runs.slots] = valid[runs.ends]
        return (self._value_of(segments.before(sums, initial_sums), segments.before(counts, initial_counts), valid),
                self._value_of(sums, counts, valid))

    def put(self, slots: np.ndarray, columns: list[pa.Array]) -> None:
        """Sets the accumulators of `slots` to the fields' values (restore)."""
        sums, counts = columns
        if counts.null_count:
            raise ValueError("an AVG count is NULL in the restored state")
        self.reset(slots)
        self.merge(slots, [sums, counts])

    def nbytes(self) -> int:
        per_sum = 16 if self.decimal else 8
        return len(self.counts) * (per_sum + 1 + 8)


def _decimal_quotient(unscaled_sum: int, count: int, scale: int, result_scale: int) -> int | None:
    """The unscaled value of `DecimalDataUtils.divide(sum, count)` at `result_scale`, or None past
    38 digits."""
    total = decimal.Decimal(unscaled_sum).scaleb(-scale, _EXACT)
    quotient = _DIVIDE.divide(total, decimal.Decimal(count))
    rounded = quotient.quantize(decimal.Decimal(1).scaleb(-result_scale, _EXACT), context=_EXACT)
    unscaled = int(rounded.scaleb(result_scale, _EXACT))
    return unscaled if decimals.fits(unscaled) else None
