"""What `GroupAggFunction.processElement` emits for each row of a batch, computed for the batch
at once.

Per row, stock reads the key's accumulators (creating them on its first row), takes the value,
accumulates the row (+I, +U) or retracts it (-U, -D), takes the value again and emits `+I new`
on the key's first row, else `-U prev` (with update-befores) and `+U new` when the values differ
under its generated equaliser (Java `==` for primitives: NaN differs from itself, 0.0 equals -0.0;
`equals` for DECIMAL; two NULLs are equal), else nothing. It compares the values, not the
accumulators: an AVG whose sum and count moved but whose quotient did not emits nothing. Over an
updating input a record counter (a COUNT(*)) counts the key's rows: a retraction for a key without
state is ignored (no state is made, nothing is emitted), and the row that brings the counter to 0
emits `-D prev` and clears the key's state, so its next row is a first row again.

A batch without retractions whose accumulators are all integer (COUNT, SUM, MIN, MAX and AVG
over integers: Nexmark's aggregates) runs in one pass over the rows sorted by key
(`windowagg.segments`), and so does every batch over an updating input whose accumulators are
integer COUNTs, SUMs and AVGs (Nexmark q4's average of the auctions' maxima): there a key's rows
are cut into runs where it starts afresh. The others are computed by occurrence level: the rows that are their
key's r-th in the batch have distinct keys, so one accumulator `fold` (or `retract`) over them is
exact (the same folds, and so the same Java arithmetic, as the window aggregate's), and the
levels run in order. That work is vectorized across keys, but the number of levels is the most
rows one key has in the batch, each a round of array calls: a hot key makes it slow (the
stateful benchmark's q17 ran at a fifteenth of stock's speed before integer batches ran in one
pass).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps
from accelerator.sidecar.row_kinds import DELETE, INSERT, UPDATE_AFTER, UPDATE_BEFORE
from accelerator.windowagg.accumulators import AccumulatorColumn
from accelerator.windowagg.averages import AverageAccumulator
from accelerator.windowagg.ordered_extremes import OrderedExtremeColumn
from accelerator.windowagg.retract_sums import SumWithRetractAccumulator
from accelerator.windowagg.segments import Runs, Segments

#: What `accumulators.for_aggregate` makes: all fold and retract operands and give values per slot.
Accumulator = AccumulatorColumn | AverageAccumulator | SumWithRetractAccumulator | OrderedExtremeColumn


@dataclass(frozen=True)
class RowChanges:
    """What each row of a batch did to its key: the emitted values before and after it, whether it
    was the key's first row (`first`), brought the record counter to 0 (`deleted`) or was a
    retraction for a key without state (`ignored`)."""

    before: list[pa.Array]
    after: list[pa.Array]
    first: np.ndarray
    deleted: np.ndarray
    ignored: np.ndarray


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


def running_values(columns: list[Accumulator], emitted: list[bool], value_types: list[pa.DataType],
                   slots: np.ndarray, operands: list[pa.Array], retracts: np.ndarray, live: np.ndarray,
                   record_counter: int | None) -> RowChanges:
    """Accumulates (retracts where `retracts`) each row's operands into its slot's accumulators in
    row order; `live` tells, per slot, whether its key has state, and is kept up to date. Returns
    the values of the `emitted` aggregates (`value_types`: one per emitted aggregate) before and
    after each row."""
    if record_counter is not None and all(column.retracts_in_one_pass for column in columns):
        return _updated_in_one_pass(columns, emitted, slots, operands, retracts, live, record_counter)
    if not retracts.any() and all(column.runs_in_one_pass for column in columns):
        return _accumulated_in_one_pass(columns, emitted, slots, operands, live)
    n = len(slots)
    rank = occurrence(slots)
    positions = np.argsort(rank, kind="stable")  # by level, rows in order within each
    bounds = np.cumsum(np.bincount(rank))
    levels = np.split(positions, bounds[:-1]) if n else []
    back = np.empty(n, dtype=np.int64)
    back[positions] = np.arange(n)
    first, deleted, ignored = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    shown = [i for i, e in enumerate(emitted) if e]
    prev: list[list[pa.Array]] = [[] for _ in shown]
    new: list[list[pa.Array]] = [[] for _ in shown]
    for rows in levels:
        level_slots, retract = slots[rows], retracts[rows]
        stateless = ~live[level_slots]
        fresh = stateless & ~retract
        ignored[rows[stateless & retract]] = True
        first[rows[fresh]] = True
        for column in columns:
            column.reset(level_slots[fresh])
        live[level_slots[fresh]] = True
        adds, subtracts = ~retract, retract & ~stateless
        for out, i in enumerate(shown):
            prev[out].append(columns[i].value(level_slots))
        for column, operand in zip(columns, operands):
            taken = operand.take(pa.array(rows))
            column.fold(level_slots[adds], taken.filter(pa.array(adds)))
            if subtracts.any():
                column.retract(level_slots[subtracts], taken.filter(pa.array(subtracts)))
        for out, i in enumerate(shown):
            new[out].append(columns[i].value(level_slots))
        if record_counter is not None:
            emptied = subtracts & (columns[record_counter].values[level_slots] == 0)
            deleted[rows[emptied]] = True
            live[level_slots[emptied]] = False
    before = [_in_row_order(chunks, back, t) for chunks, t in zip(prev, value_types)]
    after = [_in_row_order(chunks, back, t) for chunks, t in zip(new, value_types)]
    return RowChanges(before, after, first, deleted, ignored)


def _accumulated_in_one_pass(columns: list[Accumulator], emitted: list[bool], slots: np.ndarray,
                             operands: list[pa.Array], live: np.ndarray) -> RowChanges:
    """`running_values` of a batch without retractions whose accumulators all run in one pass
    (`segments`): each key's first row in the batch is its first row if the key has no state, and
    no row empties or is ignored."""
    n = len(slots)
    segments = Segments(slots)
    fresh = ~live[segments.slots]
    first = np.zeros(n, dtype=bool)
    first[segments.order[segments.starts[fresh]]] = True
    for column in columns:
        column.reset(segments.slots[fresh])
    live[segments.slots[fresh]] = True
    before, after = _shown_values(segments, columns, operands, emitted, lambda c, x: c.runs(segments, x))
    none = np.zeros(n, dtype=bool)
    return RowChanges(before, after, first, none, none)


def _updated_in_one_pass(columns: list[Accumulator], emitted: list[bool], slots: np.ndarray,
                         operands: list[pa.Array], retracts: np.ndarray, live: np.ndarray,
                         record_counter: int) -> RowChanges:
    """`running_values` over an updating input whose accumulators all retract in one pass
    (`segments.Runs`). A key's record counter is 0 exactly when it has no state, and moves like a
    walk that cannot go below 0 (a retraction at 0 is ignored): its running value is the walk's
    running sum minus the lowest the sum has been below 0 (Skorokhod's reflection). From it: a
    retraction at 0 is ignored, an accumulation at 0 is a first row (a fresh run of accumulators
    starts there) and a retraction from 1 empties the key."""
    n = len(slots)
    segments = Segments(slots)
    retract = retracts[segments.order]
    steps = np.where(retract, -1, 1).astype(np.int64)  # the record counter counts every row
    counter = columns[record_counter]
    held = np.where(live[segments.slots], counter.values[segments.slots], 0).astype(np.int64)
    walk = segments.cumulative_sum(held, steps)
    lowest = segments.cumulative_extreme(held, walk, smallest=True)
    after = walk - np.minimum(lowest, 0)
    before = segments.before(after, held)
    ignored = retract & (before == 0)
    first = ~retract & (before == 0)
    cut = segments.cut(first)
    carried = np.isin(cut.starts, segments.starts) & live[cut.slots]  # a key's first run, if it had state
    runs = Runs(cut, carried, np.where(ignored, 0, steps), segments.slots, segments.ends)
    values_before, values_after = _shown_values(segments, columns, operands, emitted,
                                                lambda c, x: c.signed_runs(runs, x))
    live[segments.slots] = after[segments.ends] > 0
    deleted = retract & (before > 0) & (after == 0)
    return RowChanges(values_before, values_after, first[segments.back], deleted[segments.back],
                      ignored[segments.back])


def _shown_values(segments: Segments, columns: list[Accumulator], operands: list[pa.Array], emitted: list[bool],
                  run) -> tuple[list[pa.Array], list[pa.Array]]:
    """The values before and after each row, in row order, of the `emitted` aggregates: `run`
    folds a column's operands sorted as `segments` sorts the rows and gives them in that order."""
    sorted_rows, back = pa.array(segments.order), pa.array(segments.back)
    before, after = [], []
    for column, operand, shown in zip(columns, operands, emitted):
        prev, new = run(column, operand.take(sorted_rows))
        if shown:
            before.append(prev.take(back))
            after.append(new.take(back))
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
        equal = pc.fill_null(_equal(prev, new), False).to_numpy(zero_copy_only=False)
        out |= ~(equal | both_null)
    return out


def _equal(prev: pa.Array, new: pa.Array) -> pa.Array:
    """`prev == new` per row (NULL where either is); timestamps (`struct<millis, nanos>`, which
    Arrow's `equal` does not compare) part by part, as `TimestampData.equals`."""
    if timestamps.holds_timestamps(prev.type):
        return pc.and_(pc.equal(timestamps.millis(prev), timestamps.millis(new)),
                       pc.equal(timestamps.nanos(prev), timestamps.nanos(new)))
    return pc.equal(prev, new)


def emission(changes: RowChanges, differs: np.ndarray, update_before: bool) -> Emission:
    """The rows to emit: `+I` for a key's first row, `-D` for the row that emptied it, `-U` (with
    `update_before`) and `+U` for the others whose values `differs`."""
    first, deleted = changes.first, changes.deleted
    n = len(first)
    update = ~first & ~deleted & ~changes.ignored & differs
    counts = np.where(first | deleted, 1, np.where(update, 2 if update_before else 1, 0))
    rows = np.repeat(np.arange(n, dtype=np.int64), counts)
    within = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    kinds = np.select([first[rows], deleted[rows], update_before & (within == 0)],
                      [INSERT, DELETE, UPDATE_BEFORE], UPDATE_AFTER).astype(np.int8)
    sources = np.where((kinds == UPDATE_BEFORE) | (kinds == DELETE), rows, n + rows)
    return Emission(rows, kinds, sources)
