"""Stock Flink's outer-join rules (LEFT, RIGHT, FULL) for a batch of insert-only rows, in 2.x's or 1.20's order.

`StreamingJoinOperator.processElement` first collects the input row's associated records: the
other side's rows of its key in state order, each as often as it arrived, that the join condition
accepts, each with the number of associations its outer state view holds at that moment. Then:

- for each associated record in turn: when the other side is outer and the record's number of
  associations is 0, `-D[null + other]` (a record held n times is retracted n times: its n copies
  all carry the number read once from its map entry), and its number becomes the value read plus
  one; then `+I[input + other]`. Flink 1.20's operator collects the associated records into a list
  first and emits every -D of them before the first +I, in the same order
  (`JoinSpec.retractions_before_joins`, which the 1.20 jar's descriptor sets);
- when there is none and the input's side is outer, `+I[input + null]`;
- an outer input side stores the row with the number of its associated records (`addRecord`
  overwrites the number of a row it already holds).

A row whose key has a NULL where the join compares with `=` has no associated records ever (stock's
null filter rejects every pair), so on an outer side it is null-padded and kept with 0.
The candidate pairs come from the backend's order (`matches`, `hashmap_backend`) filtered by the
condition; this module turns them into the output rows and the sides' new association numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accelerator.join.matches import Emission
from accelerator.join.spec import LEFT, RIGHT, JoinSpec
from accelerator.join.state import JoinState
from accelerator.sidecar.row_kinds import DELETE, INSERT

#: A pool index standing for the null padding of a side.
NULL = -1


@dataclass(frozen=True)
class OuterEmission:
    """The output rows in emission order: the batch row each belongs to, its RowKind byte, and
    where its left and right values are in each side's pool (NULL: null-padded)."""

    rows: np.ndarray
    kinds: np.ndarray
    left: np.ndarray
    right: np.ndarray


def resolve(spec: JoinSpec, state: JoinState, sides: np.ndarray, own_places: np.ndarray, new_rows: tuple[int, int],
            pairs: Emission) -> tuple[OuterEmission, tuple[np.ndarray, np.ndarray]]:
    """Stock's output for the batch's rows (their sides and places in their side's state, in
    arrival order) given each row's associated records (`pairs`: in order, condition applied), and
    each side's numbers of associations afterwards (held rows, then the batch's new distinct rows).
    Pool indices are a side's held rows, then the batch's rows (`Emission`'s)."""
    held = np.array([state.sides[LEFT].num_rows, state.sides[RIGHT].num_rows])
    associations = [np.concatenate([state.sides[s].associations, np.zeros(new_rows[s], dtype=np.int64)])
                    for s in (LEFT, RIGHT)]
    # Each side's pool index -> its distinct row's place in the side's state.
    pool_places = [np.concatenate([np.arange(held[s]), np.where(sides == s, own_places, NULL)]) for s in (LEFT, RIGHT)]
    bounds = np.searchsorted(pairs.rows, np.arange(len(sides) + 1))
    rows, kinds, lefts, rights = [], [], [], []

    def out(i: int, kind: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
        rows.append(np.full(len(kind), i, dtype=np.int64))
        kinds.append(kind.astype(np.int8))
        lefts.append(left)
        rights.append(right)

    for i in range(len(sides)):
        side = int(sides[i])
        other = RIGHT - side
        lo, hi = bounds[i], bounds[i + 1]
        if hi > lo:
            left, right = pairs.left[lo:hi], pairs.right[lo:hi]
            others = right if side == LEFT else left
            retracted = np.zeros(hi - lo, dtype=bool)
            if spec.outer[other]:
                at = pool_places[other][others]
                read = associations[other][at]
                retracted = read == 0
                associations[other][at] = read + 1
            if spec.retractions_before_joins:
                # Every -D[null + other] of the records without an association, then every +I join.
                pair = np.r_[np.flatnonzero(retracted), np.arange(hi - lo)]
                delete = np.arange(len(pair)) < retracted.sum()
            else:
                # Per associated record: its -D[null + other] when it had no association, then the +I join.
                pair = np.repeat(np.arange(hi - lo), 1 + retracted)
                delete = retracted[pair] & np.r_[True, pair[1:] != pair[:-1]]
            padded_left, padded_right = (NULL, right[pair]) if side == LEFT else (left[pair], NULL)
            out(i, np.where(delete, DELETE, INSERT), np.where(delete, padded_left, left[pair]),
                np.where(delete, padded_right, right[pair]))
        elif spec.outer[side]:
            own, padding = np.full(1, held[side] + i, dtype=np.int64), np.full(1, NULL, dtype=np.int64)
            out(i, np.full(1, INSERT), own if side == LEFT else padding, padding if side == LEFT else own)
        if spec.outer[side]:
            associations[side][own_places[i]] = hi - lo

    def joined(parts: list[np.ndarray], dtype) -> np.ndarray:
        return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)

    return (OuterEmission(joined(rows, np.int64), joined(kinds, np.int8), joined(lefts, np.int64),
                          joined(rights, np.int64)), (associations[LEFT], associations[RIGHT]))
