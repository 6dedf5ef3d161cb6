"""Accumulator columns of COUNT(*), COUNT, SUM, MIN and MAX over numbers, folded with the arithmetic
of Flink's generated code (AVG's two-field accumulator is `averages.AverageAccumulator`, MIN and MAX
over strings, booleans, dates, times and timestamps `ordered_extremes.OrderedExtremeColumn`;
`for_aggregate` makes each).

One `AccumulatorColumn` holds one aggregate's accumulator for every slot of the state. `fold`
applies a sequence of (slot, operand) pairs in their order, so the order-sensitive cases come out
as Java computes them one row at a time (docs/design/stateful-window-aggregate.md §5):

- COUNT: a BIGINT that starts at 0 and adds (a partial count when merging), wrapping as Java
  `long` does.
- SUM: starts NULL, ignores NULL operands, the first operand becomes the sum. TINYINT, SMALLINT,
  INT and BIGINT wrap (two's complement `+` in the type's width: the generated code is
  `(byte) (acc + x)`, `(short) (acc + x)`); FLOAT and DOUBLE are `acc + x` in order, in their own
  precision (numpy's `add.at` is an unbuffered, sequential loop, and a NULL sum is held as -0.0,
  the one value with `-0.0 + x == x` for every x); DECIMAL adds at precision 38 and becomes NULL
  when the sum has more than 38 digits (`DecimalData.fromBigDecimal`), after which the next
  operand starts it again.
- MIN/MAX: start NULL, ignore NULL operands, replace when `x < acc` (`x > acc`), the primitive
  comparison: for FLOAT and DOUBLE a NaN never replaces and, once held, stays; of 0.0 and -0.0
  the first stays.

Merging partial accumulators (phase global) is the same fold, the operand being the partial's
value: Flink's merge expressions of these functions are their accumulate expressions over the
other accumulator.

Over an updating input (a group aggregate's retractions) only the COUNTs retract here
(`count - 1`, wrapping as Java `long`); a SUM that retracts is `retract_sums.SumWithRetractAccumulator`.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.windowagg import decimals, ordered_extremes
from accelerator.windowagg.operands import non_null
from accelerator.windowagg.averages import AverageAccumulator
from accelerator.windowagg.retract_sums import SumWithRetractAccumulator
from accelerator.windowagg.segments import Runs, Segments
from accelerator.windowagg.spec import Aggregate

_NUMPY = {"TINYINT": np.int8, "SMALLINT": np.int16, "INT": np.int32, "BIGINT": np.int64,
          "FLOAT": np.float32, "DOUBLE": np.float64}
#: Accumulators of Java's integer types, whose running values `segments` computes in one pass.
_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
#: Accumulators of Java's floating-point types (IEEE `+`, `<` and `>`).
_FLOATS = ("FLOAT", "DOUBLE")


def for_aggregate(aggregate: Aggregate, capacity: int = 0):
    """The accumulator of `aggregate`'s function, with `capacity` slots."""
    if aggregate.function == "avg":
        return AverageAccumulator(aggregate, capacity)
    if aggregate.function == "sum_retract":
        return SumWithRetractAccumulator(aggregate, capacity)
    if aggregate.function in ("min", "max") and aggregate.acc.root in ordered_extremes.ROOTS:
        return ordered_extremes.OrderedExtremeColumn(aggregate, capacity)
    return AccumulatorColumn(aggregate, capacity)


class AccumulatorColumn:
    """One aggregate's accumulators, one per state slot: `values` (numpy; Python ints for
    DECIMAL) and `valid` (False where the accumulator is NULL). Its one accumulator field is
    also its value."""

    def __init__(self, aggregate: Aggregate, capacity: int = 0):
        self.function = aggregate.function
        self.arrow_type = aggregate.acc_arrow
        self.root = aggregate.acc.root
        self.values = np.empty(0, dtype=object if self.root == "DECIMAL" else _NUMPY[self.root])
        self.valid = np.empty(0, dtype=bool)
        self.grow(capacity)

    @property
    def is_count(self) -> bool:
        return self.function in ("count1", "count")

    def grow(self, capacity: int) -> None:
        extra = capacity - len(self.valid)
        if extra > 0:
            self.values = np.concatenate([self.values, np.zeros(extra, dtype=self.values.dtype)])
            self.valid = np.concatenate([self.valid, np.zeros(extra, dtype=bool)])

    def reset(self, slots: np.ndarray) -> None:
        """Fresh accumulators (Flink's `createAccumulators`): COUNT 0, the others NULL."""
        self.values[slots] = self._null_value()
        self.valid[slots] = self.is_count

    def _null_value(self):
        if self.root == "DECIMAL":
            return 0
        if self.root in _FLOATS:
            return -0.0  # see the module docstring: -0.0 + x == x for every x
        if self.function == "min":
            return np.iinfo(self.values.dtype).max
        if self.function == "max":
            return np.iinfo(self.values.dtype).min
        return 0

    # -- folding -----------------------------------------------------------------------------

    def fold(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Accumulates `operands[i]` into slot `slots[i]`, for i in order; NULL operands are
        ignored (COUNT's operands are the counts to add, never NULL)."""
        if len(slots) == 0:
            return
        slots, operands = non_null(slots, operands)
        if self.root == "DECIMAL":
            self._fold_decimal(slots, decimals.unscaled(operands))
            return
        x = operands.to_numpy(zero_copy_only=False).astype(self.values.dtype, copy=False)
        with np.errstate(all="ignore"):  # inf - inf is NaN, as in Java, without a warning
            self._fold_numbers(slots, x)
        self.valid[slots] = True

    def retract(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Retracts `operands[i]` from slot `slots[i]` (COUNT's retract expression, `count - 1`
        per counted row); the other functions of this column have no retract expression."""
        if not self.is_count:
            raise ValueError(f"{self.function} has no retraction; a retracting SUM is sum_retract")
        if len(slots) == 0:
            return
        slots, operands = non_null(slots, operands)
        np.subtract.at(self.values, slots, operands.to_numpy(zero_copy_only=False).astype(np.int64, copy=False))

    def _fold_numbers(self, slots: np.ndarray, x: np.ndarray) -> None:
        if self.is_count or self.function == "sum":
            np.add.at(self.values, slots, x)  # integers wrap as Java's + (and its narrowing cast) does
        elif self.root in _FLOATS:
            self._fold_float_extreme(slots, x)
        elif self.function == "min":
            np.minimum.at(self.values, slots, x)
        else:
            np.maximum.at(self.values, slots, x)

    def _fold_float_extreme(self, slots: np.ndarray, x: np.ndarray) -> None:
        """MIN/MAX of FLOAT or DOUBLE with Java's `<` / `>`, vectorized over the batch's slots. MAX
        is MIN of the negations (negation maps `x > acc` to `-x < -acc` exactly, signs of zero and
        NaN included)."""
        flip = np.negative if self.function == "max" else np.positive
        unique, first, local = np.unique(slots, return_index=True, return_inverse=True)
        xs, held = flip(x), flip(self.values[unique])
        # A NULL accumulator takes the slot's first operand, whatever it is (NaN included).
        starts = ~self.valid[unique]
        held[starts] = xs[first[starts]]
        # From a non-NaN accumulator the sequence ends at the first occurrence of the smallest
        # non-NaN operand, if that is smaller; a NaN accumulator never changes.
        usable = ~np.isnan(xs)
        smallest = np.full(len(unique), np.inf)
        np.minimum.at(smallest, local[usable], xs[usable])
        at_smallest = usable & (xs == smallest[local])
        first_smallest = np.full(len(unique), len(xs))
        np.minimum.at(first_smallest, local[at_smallest], np.flatnonzero(at_smallest))
        replace = (smallest < held) & ~np.isnan(held)
        held[replace] = xs[first_smallest[replace]]
        self.values[unique] = flip(held)
        self.valid[unique] = True

    def _fold_decimal(self, slots: np.ndarray, unscaled: list[int]) -> None:
        values, valid = self.values, self.valid
        for slot, x in zip(slots.tolist(), unscaled):
            if not valid[slot]:
                values[slot], valid[slot] = x, True
            elif self.function == "sum":
                total = values[slot] + x
                if decimals.fits(total):
                    values[slot] = total
                else:
                    values[slot], valid[slot] = 0, False
            elif (x < values[slot]) if self.function == "min" else (x > values[slot]):
                values[slot] = x

    def merge(self, slots: np.ndarray, partials: list[pa.Array]) -> None:
        """Merges partial accumulators (their one field) into `slots`, in order."""
        self.fold(slots, partials[0])

    def merge_from(self, other: "AccumulatorColumn", slots: np.ndarray) -> None:
        """Merges `other`'s accumulators of `slots` into this column's (one each, in order)."""
        self.merge(slots, other.state(slots))

    # -- Arrow -------------------------------------------------------------------------------

    def state(self, slots: np.ndarray) -> list[pa.Array]:
        """The accumulator fields of `slots`, as checkpoints and partials carry them."""
        return [self.value(slots)]

    def value(self, slots: np.ndarray) -> pa.Array:
        return self._value_of(self.values[slots], self.valid[slots])

    def _value_of(self, values: np.ndarray, valid: np.ndarray) -> pa.Array:
        if self.root == "DECIMAL":
            return decimals.from_unscaled(values.tolist(), valid, self.arrow_type)
        mask = None if valid.all() else ~valid
        if mask is not None:
            values = np.where(valid, values, np.zeros(1, dtype=values.dtype))
        return pa.array(values, type=self.arrow_type, mask=mask)

    # -- running values (a group aggregate's insert-only rows) ---------------------------------

    @property
    def runs_in_one_pass(self) -> bool:
        """Whether `runs` can fold this column's operands (integer accumulators only, see
        `segments`)."""
        return self.root in _INTEGERS

    def runs(self, segments: Segments, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Folds `operands` (sorted as `segments` sorts the rows) into their slots, as `fold`
        does, and returns each sorted row's value before and after it."""
        present = operands.is_valid().to_numpy(zero_copy_only=False)
        x = pc.fill_null(operands, 0).to_numpy(zero_copy_only=False).astype(self.values.dtype, copy=False)
        initial, initially_valid = self.values[segments.slots], self.valid[segments.slots]
        if self.is_count or self.function == "sum":
            after = segments.cumulative_sum(initial, x)  # NULL operands were filled with 0
        else:  # an invalid accumulator holds the identity of its extreme (`_null_value`)
            x = np.where(present, x, self._null_value()).astype(x.dtype, copy=False)
            after = segments.cumulative_extreme(initial, x, smallest=self.function == "min")
        after_valid = initially_valid[segments.seg] | segments.cumulative_any(present)
        self.values[segments.slots] = after[segments.ends]
        self.valid[segments.slots] = after_valid[segments.ends]
        return (self._value_of(segments.before(after, initial), segments.before(after_valid, initially_valid)),
                self._value_of(after, after_valid))

    @property
    def retracts_in_one_pass(self) -> bool:
        """Whether `signed_runs` can fold this column over an updating input (the COUNTs: the
        only functions of this column that retract)."""
        return self.is_count

    def signed_runs(self, runs: Runs, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Adds and subtracts `operands` (sorted as `runs` sorts the rows, signed by it) run by
        run, as `fold` and `retract` do, and returns each sorted row's value before and after it."""
        x = pc.fill_null(operands, 0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        segments = runs.segments
        initial = np.where(runs.carried, self.values[segments.slots], 0).astype(np.int64)
        with np.errstate(over="ignore"):
            after = segments.cumulative_sum(initial, x * runs.signs)
        self.values[runs.slots] = after[runs.ends]
        self.valid[runs.slots] = True
        valid = np.ones(len(after), dtype=bool)
        return self._value_of(segments.before(after, initial), valid), self._value_of(after, valid)

    def put(self, slots: np.ndarray, columns: list[pa.Array]) -> None:
        """Sets the accumulators of `slots` to the fields' values (restore)."""
        column = columns[0]
        valid = column.is_valid().to_numpy(zero_copy_only=False)
        if self.is_count and not valid.all():
            raise ValueError("a COUNT accumulator is NULL in the restored state")
        self.reset(slots)
        if self.root == "DECIMAL":
            held = np.empty(len(slots), dtype=object)
            held[:] = decimals.unscaled(pc.fill_null(column, 0)) if len(slots) else []
            self.values[slots[valid]] = held[valid]
        else:
            filled = pc.fill_null(column, 0).to_numpy(zero_copy_only=False)
            self.values[slots[valid]] = filled[valid]
        self.valid[slots] = valid

    def nbytes(self) -> int:
        per_value = 16 if self.root == "DECIMAL" else self.values.itemsize
        return len(self.valid) * (per_value + 1)
