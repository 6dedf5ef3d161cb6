"""What `GroupAggFunction.processElement` emits for each row of a batch, computed for the batch
at once.

Per row, stock reads the key's accumulators (creating them on its first row), takes the value,
accumulates the row, takes the value again and emits `+I new` on the key's first row, else
`-U prev` (with update-befores) and `+U new` when the values differ under its generated equaliser
(Java `==` for primitives: NaN differs from itself, 0.0 equals -0.0; `equals` for DECIMAL; two
NULLs are equal), else nothing. It compares the values, not the accumulators: an AVG whose sum
and count moved but whose quotient did not emits nothing.

The running values are computed by occurrence level: the rows that are their key's r-th in the
batch have distinct keys, so one accumulator `fold` over them is exact (the same folds, and
so the same Java arithmetic, as the window aggregate's), and the levels run in order. The work is
vectorized across keys; the number of levels is the most rows one key has in the batch. A segmented
cumulative sum (numpy, DataFusion window functions) would be one pass per batch, but would need an
exact re-implementation of every fold (DOUBLE sums in order, DECIMAL overflow to NULL, NaN in
MIN/MAX) beside the accumulators': one way to do each thing wins over the faster path here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.windowagg.accumulators import AccumulatorColumn
from accelerator.windowagg.averages import AverageAccumulator

#: What `accumulators.for_aggregate` makes: both fold operands and give values per slot.
Accumulator = AccumulatorColumn | AverageAccumulator

INSERT, UPDATE_BEFORE, UPDATE_AFTER = 0, 1, 2  # Flink's RowKind byte values


@dataclass(frozen=True)
class Emission:
    """The rows to emit, in order: the batch row each comes from, its RowKind byte and the index of
    its values in `prev + new` (the value columns before and after each row, concatenated)."""

    rows: np.ndarray
    kinds: np.ndarray
    sources: np.ndarray


def occurrence(slots: np.ndarray) -> np.ndarray:
    """Per row, how many earlier rows of the batch have its slot (0 for the first)."""
    order = np.argsort(slots, kind="stable")
    ordered = slots[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    lengths = np.diff(np.r_[starts, len(slots)])
    rank = np.empty(len(slots), dtype=np.int64)
    rank[order] = np.arange(len(slots)) - np.repeat(starts, lengths)
    return rank


def running_values(columns: list[Accumulator], value_types: list[pa.DataType], slots: np.ndarray,
                   operands: list[pa.Array]) -> tuple[list[pa.Array], list[pa.Array]]:
    """Folds each row's operands into its slot's accumulators in row order; returns, per
    aggregate, the value (of its `value_types` entry) before and after each row."""
    rank = occurrence(slots)
    positions = np.argsort(rank, kind="stable")  # by level, rows in order within each
    bounds = np.cumsum(np.bincount(rank))
    levels = np.split(positions, bounds[:-1]) if len(rank) else []
    back = np.empty(len(positions), dtype=np.int64)
    back[positions] = np.arange(len(positions))
    before, after = [], []
    for column, value_type, operand in zip(columns, value_types, operands):
        prev, new = [], []
        for rows in levels:
            level_slots = slots[rows]
            prev.append(column.value(level_slots))
            column.fold(level_slots, operand.take(pa.array(rows)))
            new.append(column.value(level_slots))
        before.append(_in_row_order(prev, back, value_type))
        after.append(_in_row_order(new, back, value_type))
    return before, after


def _in_row_order(chunks: list[pa.Array], back: np.ndarray, arrow_type: pa.DataType) -> pa.Array:
    joined = pa.concat_arrays(chunks) if chunks else pa.array([], arrow_type)
    return joined.take(pa.array(back))


def changed(before: list[pa.Array], after: list[pa.Array]) -> np.ndarray:
    """Per row, whether any value differs under stock's equaliser."""
    n = len(before[0]) if before else 0
    out = np.zeros(n, dtype=bool)
    for prev, new in zip(before, after):
        both_null = (prev.is_null().to_numpy(zero_copy_only=False) & new.is_null().to_numpy(zero_copy_only=False))
        equal = pc.fill_null(pc.equal(prev, new), False).to_numpy(zero_copy_only=False)
        out |= ~(equal | both_null)
    return out


def emission(first: np.ndarray, differs: np.ndarray, update_before: bool) -> Emission:
    """The rows to emit for rows that are (`first`) their key's first, or whose values `differs`."""
    n = len(first)
    update = ~first & differs
    counts = np.where(first, 1, np.where(update, 2 if update_before else 1, 0))
    rows = np.repeat(np.arange(n, dtype=np.int64), counts)
    within = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    kinds = np.where(first[rows], INSERT,
                     np.where(update_before & (within == 0), UPDATE_BEFORE, UPDATE_AFTER)).astype(np.int8)
    sources = np.where(kinds == UPDATE_BEFORE, rows, n + rows)
    return Emission(rows, kinds, sources)
