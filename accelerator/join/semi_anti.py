"""Stock Flink 2.2.1's SEMI and ANTI join rules (`StreamingSemiAntiJoinOperator`, planned for
`IN` / `EXISTS` / `NOT EXISTS` subqueries) for a batch of insert-only rows.

The left input's state is an `OuterJoinRecordStateViews` view (each row with its count and its
number of associations), the right input's a plain `JoinRecordStateViews` one. The output rows are
left rows only:

- a left row: its associated records are the right rows of its key, each as often as it arrived,
  that the join condition accepts. SEMI emits the row (its own kind, +I) when there is one, ANTI
  when there is none; then the row is stored with their number (`addRecord` counts it up and
  overwrites the number of a row it already holds);
- a right row: it is stored; its associated records are the left rows of its key in state order,
  each as often as it arrived, each copy with the number of associations read once from its map
  entry. Per associated record in turn: when that number is 0, SEMI emits the left row with the
  right row's kind (+I), ANTI retracts it (-D) (a left row held n times comes out n times); then
  its number becomes the one read plus one.

A row whose key has a NULL where the join compares with `=` has no associated record ever (stock's
null filter rejects every pair): a left one is emitted by an ANTI join and stored with 0.
The candidate pairs come from the backend's order (`matches`, `hashmap_backend`) filtered by the
condition; this module turns them into the output rows and the left side's new association numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accelerator.join.matches import Emission
from accelerator.join.spec import ANTI, LEFT, RIGHT, JoinSpec
from accelerator.join.state import JoinState
from accelerator.sidecar.row_kinds import DELETE, INSERT


@dataclass(frozen=True)
class SemiAntiEmission:
    """The output rows in emission order: the batch row each belongs to, its RowKind byte, and
    where the emitted left row is in the left side's pool (its held rows, then the batch's rows)."""

    rows: np.ndarray
    kinds: np.ndarray
    left: np.ndarray


def resolve(spec: JoinSpec, state: JoinState, sides: np.ndarray, own_places: np.ndarray, new_rows: tuple[int, int],
            pairs: Emission) -> tuple[SemiAntiEmission, tuple[np.ndarray, np.ndarray]]:
    """Stock's output for the batch's rows (their sides and places in their side's state, in
    arrival order) given each row's associated records (`pairs`: in order, condition applied), and
    each side's numbers of associations afterwards (held rows, then the batch's new distinct rows;
    the right side's stay 0, stock keeps none for it)."""
    anti = spec.join_type == ANTI
    held_left = state.sides[LEFT].num_rows
    associations = [np.concatenate([state.sides[s].associations, np.zeros(new_rows[s], dtype=np.int64)])
                    for s in (LEFT, RIGHT)]
    # The left pool's index -> its distinct row's place in the left state.
    left_places = np.concatenate([np.arange(held_left), np.where(sides == LEFT, own_places, -1)])
    bounds = np.searchsorted(pairs.rows, np.arange(len(sides) + 1))
    rows, kinds, lefts = [], [], []
    first_match_kind = DELETE if anti else INSERT
    for i in range(len(sides)):
        lo, hi = bounds[i], bounds[i + 1]
        if sides[i] == LEFT:
            if (hi > lo) != anti:
                rows.append(np.full(1, i, dtype=np.int64))
                kinds.append(np.full(1, INSERT, dtype=np.int8))
                lefts.append(np.full(1, held_left + i, dtype=np.int64))
            associations[LEFT][own_places[i]] = hi - lo
        elif hi > lo:
            left = pairs.left[lo:hi]
            at = left_places[left]
            read = associations[LEFT][at]
            first = read == 0
            associations[LEFT][at] = read + 1
            emitted = left[first]
            rows.append(np.full(len(emitted), i, dtype=np.int64))
            kinds.append(np.full(len(emitted), first_match_kind, dtype=np.int8))
            lefts.append(emitted)

    def joined(parts: list[np.ndarray], dtype) -> np.ndarray:
        return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)

    return (SemiAntiEmission(joined(rows, np.int64), joined(kinds, np.int8), joined(lefts, np.int64)),
            (associations[LEFT], associations[RIGHT]))
