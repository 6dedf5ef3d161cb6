"""A batch's rows grouped by state slot, and running totals within each group in one numpy pass.

A group aggregate emits a value per row, so it needs every row's running accumulator, not only
the last. Computing them level by level (the r-th row of every key at once) costs a round of
array calls per level, and a hot key (Nexmark's hot auction takes half the bids) makes a level
per row. Here the rows are sorted by slot (stably: each key's rows stay in arrival order) and
each running total is one scan over the whole batch, restarted at each key's first row:

- sums and counts of Java `int`/`long`: a cumulative sum minus the sum before the key's first row.
  Two's complement addition wraps and is associative, so this is exactly the row-by-row sum;
- MIN/MAX of integers: a cumulative extreme over (key, value rank) pairs, so that no earlier
  key's value can win; ties keep the held value, as Java's `x < acc` does.

Sums of doubles depend on their order of addition across the restart and DECIMALs are Python
ints: their accumulators keep the level-by-level path.

Over an updating input a key can start afresh within a batch (the row that empties it clears its
state); `Runs` cuts each key's rows there, so that every run restarts its totals from the key's
held accumulators or from fresh ones, and signs each row's operand (retractions subtract).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np


class Segments:
    """The rows of a batch by slot: `order` sorts them (stably), `back` undoes it; per segment
    (one per distinct slot, in slot order) its `slots`, its `starts` and `ends` in sorted order,
    and per sorted row its segment `seg`."""

    def __init__(self, slots: np.ndarray):
        n = len(slots)
        self.order = np.argsort(slots, kind="stable")
        ordered = slots[self.order]
        starts = np.r_[True, ordered[1:] != ordered[:-1]] if n else np.zeros(0, dtype=bool)
        self._bound(starts)
        self.slots = ordered[self.starts]
        self.back = np.empty(n, dtype=np.int64)
        self.back[self.order] = np.arange(n)

    def _bound(self, starts: np.ndarray) -> None:
        self.starts = np.flatnonzero(starts)
        self.ends = np.append(self.starts[1:], len(starts))[:len(self.starts)] - 1
        self.seg = np.cumsum(starts) - 1

    def cut(self, at: np.ndarray) -> "Segments":
        """These segments cut further before each sorted row where `at`: the same rows in the same
        order, in runs whose `slots` are each run's slot (a slot may have several runs)."""
        starts = np.array(at, dtype=bool)
        starts[self.starts] = True
        runs = copy.copy(self)
        runs._bound(starts)
        runs.slots = self.slots[self.seg[runs.starts]]
        return runs

    def cumulative_sum(self, initial: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Per sorted row, its segment's `initial` plus the segment's `x` up to and including it,
        in `x`'s integer type (wrapping as Java's `+`)."""
        with np.errstate(over="ignore"):
            totals = np.cumsum(x, dtype=x.dtype)
            before_segment = (totals - x)[self.starts]
            return initial[self.seg] + (totals - before_segment[self.seg])

    def cumulative_any(self, flags: np.ndarray) -> np.ndarray:
        """Per sorted row, whether any of its segment's `flags` up to and including it is set."""
        counts = np.cumsum(flags, dtype=np.int64)
        return counts - (counts - flags)[self.starts][self.seg] > 0

    def cumulative_extreme(self, initial: np.ndarray, x: np.ndarray, smallest: bool) -> np.ndarray:
        """Per sorted row, the least (`smallest`) or greatest of its segment's `initial` and `x` up
        to and including it, for integer values."""
        values, ranks = np.unique(np.concatenate([initial, x]), return_inverse=True)
        ranks = ranks.astype(np.int64)
        count, segments = len(values), len(self.slots)
        # The segment's initial value first, then its rows; each segment in a band of `count`
        # keys that lies beyond every earlier segment's in the direction the extreme moves.
        band = (segments - 1 - np.arange(segments)) if smallest else np.arange(segments)
        keys = np.empty(len(x) + segments, dtype=np.int64)
        at_initial = self.starts + np.arange(segments)
        at_row = np.arange(len(x)) + self.seg + 1
        keys[at_initial] = band * count + ranks[:segments]
        keys[at_row] = band[self.seg] * count + ranks[segments:]
        running = (np.minimum if smallest else np.maximum).accumulate(keys)[at_row]
        return values[running - band[self.seg] * count]

    def before(self, after: np.ndarray, initial: np.ndarray) -> np.ndarray:
        """Per sorted row, the value before it: its segment's `initial` for a segment's first row,
        else the previous row's `after`."""
        shifted = np.empty_like(after)
        shifted[1:] = after[:-1]
        shifted[self.starts] = initial
        return shifted


@dataclass(frozen=True)
class Runs:
    """A batch's rows over an updating input, by slot and cut where a key starts afresh: `segments`
    (their `slots` are each run's slot), per run whether it starts from the slot's held
    accumulators (`carried`, else from fresh ones), per sorted row the sign of its operand
    (`signs`: +1 accumulates, -1 retracts, 0 changes nothing), and per slot of the batch its
    `slots` and the sorted position of its last row (`ends`), whose totals it holds after."""

    segments: Segments
    carried: np.ndarray
    signs: np.ndarray
    slots: np.ndarray
    ends: np.ndarray
