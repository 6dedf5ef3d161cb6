"""MIN and MAX over strings (CHAR, VARCHAR), BOOLEAN, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ, in
the order of Flink's generated `<` and `>` (`MinAggFunction`/`MaxAggFunction`: start NULL, ignore
NULL operands, replace when `x < acc` / `x > acc`; merging partials is the same fold):

- strings by their UTF-8 bytes, unsigned, shorter first on a common prefix
  (`BinaryStringData.compareTo` of the byte-backed strings the operator reads from its network
  input or its buffer; see docs/design/stateful-window-aggregate.md §5 for the one case where
  stock compares Java strings instead);
- BOOLEAN false before true (`Boolean.compare`), DATE and TIME as their int (days, milliseconds);
- TIMESTAMP and TIMESTAMP_LTZ by milliseconds, then nanoseconds of the millisecond
  (`TimestampData.compareTo`), which the sidecar's `struct<millis, nanos>` layout holds exactly
  at every precision and year.

Each of these orders is total and two values that compare equal are the same value, so the
extreme of a sequence does not depend on the order of the fold: a batch is folded at once by
ranking the held values and the operands together (Arrow's sort of the bytes, numpy's of the
timestamp parts) and taking each slot's least (greatest) rank.

The values live in one Arrow array of the accumulator's type (`pool`), each slot pointing at its
value (`refs`, -1 for NULL); new extremes are appended, and the pool is compacted to the live
values once it holds more than twice as many.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps, types
from accelerator.windowagg.operands import non_null
from accelerator.windowagg.segments import Segments
from accelerator.windowagg.spec import Aggregate

#: The accumulator types this column holds (`AggregateFunctions` maps their MIN/MAX classes here).
ROOTS = ("BOOLEAN", "CHAR", "VARCHAR", "DATE", "TIME", "TIMESTAMP", types.TIMESTAMP_LTZ)
#: Stale values the pool keeps before a compaction, beyond twice the live ones.
_SLACK = 4096


class OrderedExtremeColumn:
    """One MIN or MAX aggregate's accumulators, one per state slot (its one accumulator field is
    also its value)."""

    def __init__(self, aggregate: Aggregate, capacity: int = 0):
        self.function = aggregate.function
        self.arrow_type = aggregate.acc_arrow
        self.smallest = aggregate.function == "min"
        self.pool = pa.array([], self.arrow_type)
        self.refs = np.empty(0, dtype=np.int64)
        self.grow(capacity)

    def grow(self, capacity: int) -> None:
        extra = capacity - len(self.refs)
        if extra > 0:
            self.refs = np.concatenate([self.refs, np.full(extra, -1, dtype=np.int64)])

    def reset(self, slots: np.ndarray) -> None:
        """Fresh accumulators (Flink's `createAccumulators`): NULL."""
        self.refs[slots] = -1

    # -- folding -----------------------------------------------------------------------------

    def fold(self, slots: np.ndarray, operands: pa.Array) -> None:
        """Accumulates `operands[i]` into slot `slots[i]`; NULL operands are ignored."""
        slots, operands = non_null(slots, operands)
        if len(slots) == 0:
            return
        unique, local = np.unique(slots, return_inverse=True)
        held = self.refs[unique]
        holding = np.flatnonzero(held >= 0)
        # The held values first: a tie keeps the held value (`x < acc` is false).
        candidates = pa.concat_arrays([self.pool.take(pa.array(held[holding])), self._typed(operands)])
        owners = np.concatenate([holding, local.reshape(-1)])
        keys = self._keys(_ranks(candidates))
        least = np.full(len(unique), np.iinfo(np.int64).max)
        np.minimum.at(least, owners, keys)
        hits = np.flatnonzero(keys == least[owners])
        chosen = np.full(len(unique), len(keys))
        np.minimum.at(chosen, owners[hits], hits)
        replaced = chosen >= len(holding)
        self._store(unique[replaced], candidates.take(pa.array(chosen[replaced])))

    def merge(self, slots: np.ndarray, partials: list[pa.Array]) -> None:
        """Merges partial accumulators (their one field) into `slots`."""
        self.fold(slots, partials[0])

    def merge_from(self, other: "OrderedExtremeColumn", slots: np.ndarray) -> None:
        """Merges `other`'s accumulators of `slots` into this column's (one each)."""
        self.merge(slots, other.state(slots))

    def retract(self, slots: np.ndarray, operands: pa.Array) -> None:
        raise ValueError(f"{self.function} has no retraction; over an updating input Flink keeps MIN/MAX stock")

    # -- Arrow -------------------------------------------------------------------------------

    def state(self, slots: np.ndarray) -> list[pa.Array]:
        """The accumulator field of `slots`, as checkpoints and partials carry it."""
        return [self.value(slots)]

    def value(self, slots: np.ndarray) -> pa.Array:
        refs = self.refs[slots]
        return timestamps.zero_parts_under_nulls(self.pool.take(pa.array(refs, mask=refs < 0)))

    def put(self, slots: np.ndarray, columns: list[pa.Array]) -> None:
        """Sets the accumulators of `slots` to the field's values (restore)."""
        column = columns[0]
        valid = column.is_valid().to_numpy(zero_copy_only=False)
        self.reset(slots)
        self._store(slots[valid], self._typed(column.filter(pa.array(valid))))

    def nbytes(self) -> int:
        return self.refs.nbytes + self.pool.get_total_buffer_size()

    # -- running values (a group aggregate's insert-only rows) ---------------------------------

    #: Ranks are integers, so `segments` computes the running extremes in one pass.
    runs_in_one_pass = True
    #: Over an updating input Flink runs MIN/MAX with a map of values, which stays stock.
    retracts_in_one_pass = False

    def runs(self, segments: Segments, operands: pa.Array) -> tuple[pa.Array, pa.Array]:
        """Folds `operands` (sorted as `segments` sorts the rows) into their slots, as `fold`
        does, and returns each sorted row's value before and after it."""
        present = operands.is_valid().to_numpy(zero_copy_only=False)
        refs = self.refs[segments.slots]
        held = refs >= 0
        candidates = pa.concat_arrays([self.pool.take(pa.array(refs[held])),
                                       self._typed(operands.filter(pa.array(present)))])
        ranks = _ranks(candidates)
        # Missing values (a NULL accumulator or operand) rank beyond every value: the extreme's identity.
        missing = len(candidates) if self.smallest else -1
        initial = np.full(len(refs), missing, dtype=np.int64)
        initial[held] = ranks[:int(held.sum())]
        x = np.full(len(operands), missing, dtype=np.int64)
        x[present] = ranks[int(held.sum()):]
        after = segments.cumulative_extreme(initial, x, smallest=self.smallest)
        after_valid = held[segments.seg] | segments.cumulative_any(present)
        # Any candidate of a rank stands for it: equal ranks are equal values.
        of_rank = np.zeros(max(len(candidates), 1), dtype=np.int64)
        of_rank[ranks] = np.arange(len(candidates))
        ends = after[segments.ends]
        ends_valid = after_valid[segments.ends]
        self.reset(segments.slots)
        if len(candidates):
            self._store(segments.slots[ends_valid], candidates.take(pa.array(of_rank[ends[ends_valid]])))
        return (self._of_ranks(candidates, of_rank, segments.before(after, initial),
                               segments.before(after_valid, held)),
                self._of_ranks(candidates, of_rank, after, after_valid))

    def _of_ranks(self, candidates: pa.Array, of_rank: np.ndarray, ranks: np.ndarray, valid: np.ndarray) -> pa.Array:
        if not len(candidates):
            return timestamps.nulls(self.arrow_type, len(ranks))
        picked = of_rank[np.clip(ranks, 0, len(of_rank) - 1)]
        # A NULL timestamp's NOT NULL parts hold zeros, as the layout needs.
        return timestamps.zero_parts_under_nulls(candidates.take(pa.array(picked, mask=~valid)))

    # -- the pool ----------------------------------------------------------------------------

    def _keys(self, ranks: np.ndarray) -> np.ndarray:
        """Ranks turned so that the extreme is the least key."""
        return ranks if self.smallest else -ranks

    def _typed(self, values: pa.Array) -> pa.Array:
        """`values` as the accumulator's Arrow type (a CHAR or VARCHAR argument is a string either way)."""
        return values if values.type == self.arrow_type else values.cast(self.arrow_type)

    def _store(self, slots: np.ndarray, values: pa.Array) -> None:
        """Points `slots` at `values` (one each, not NULL), appended to the pool."""
        if not len(slots):
            return
        start = len(self.pool)
        self.pool = pa.concat_arrays([self.pool, values])
        self.refs[slots] = np.arange(start, start + len(values))
        live = np.flatnonzero(self.refs >= 0)
        if len(self.pool) > 2 * len(live) + _SLACK:
            self.pool = self.pool.take(pa.array(self.refs[live]))
            self.refs[live] = np.arange(len(live))


def _ranks(values: pa.Array) -> np.ndarray:
    """Each value's dense rank (0 for the least) in Flink's order of its type; `values` has no NULL."""
    n = len(values)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if timestamps.holds_timestamps(values.type):
        millis = timestamps.millis(values).to_numpy(zero_copy_only=False)
        nanos = timestamps.nanos(values).to_numpy(zero_copy_only=False)
        order = np.lexsort((nanos, millis))
        millis, nanos = millis[order], nanos[order]
        steps = (millis[1:] != millis[:-1]) | (nanos[1:] != nanos[:-1])
    else:
        if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
            values = values.cast(pa.binary())  # compared as bytes, unsigned
        order = pc.sort_indices(values).to_numpy(zero_copy_only=False)
        ordered = values.take(pa.array(order))
        steps = pc.not_equal(ordered.slice(1), ordered.slice(0, n - 1)).to_numpy(zero_copy_only=False)
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.concatenate([[0], np.cumsum(steps, dtype=np.int64)])
    return ranks
