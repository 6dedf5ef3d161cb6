"""One firing's output, in the order stock Flink 2.2.1's WindowJoinOperator emits it.

At a watermark, stock's timer of each (key, window end) fires and its WindowJoinHelper walks the
window's rows of both inputs, each input's in arrival order (its WindowListState), asking
`JoinConditionWithNullFilters` of each (left row, right row) pair:

- INNER: for each left row, each right row it matches;
- LEFT: as INNER, a left row matching none null-padded after where its matches would be;
- RIGHT: for each right row, each left row it matches, or the right row null-padded;
- FULL: as LEFT, then every right row no left row matched, null-padded, in arrival order;
- SEMI / ANTI: each left row that matches some right row / none, as it is.

Rows are the indices of one firing's rows (arrival order) and `groups` numbers their (key,
window end); the output keeps each group's rows together (the JVM emits each group's rows in its
timer's turn), groups in ascending number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accelerator.windowjoin.spec import ANTI, LEFT, RIGHT, SEMI

#: No row: the side of an output row that is null-padded.
NULL = -1


@dataclass(frozen=True)
class Emission:
    """Per output row, in emission order: its left row, its right row (either NULL) and its group."""
    left: np.ndarray
    right: np.ndarray
    group: np.ndarray


def candidates(groups: np.ndarray, sides: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (left row, right row) pair of the same group, by group, then left rows in arrival
    order, then right rows in arrival order: the pairs stock's INNER loop asks the condition of."""
    n = len(groups)
    order = np.lexsort((np.arange(n), sides, groups))  # by group, left rows first, each in arrival order
    lefts = np.bincount(groups[sides == LEFT], minlength=count)
    rights = np.bincount(groups[sides == RIGHT], minlength=count)
    start = np.cumsum(lefts + rights) - (lefts + rights)
    pairs = lefts * rights
    group = np.repeat(np.arange(count), pairs)
    at = np.arange(int(pairs.sum())) - np.repeat(np.cumsum(pairs) - pairs, pairs)
    per_left = rights[group]
    return order[start[group] + at // per_left], order[start[group] + lefts[group] + at % per_left]


def emit(join_type: str, groups: np.ndarray, sides: np.ndarray, left: np.ndarray, right: np.ndarray,
         matched: np.ndarray) -> Emission:
    """The output of a firing whose candidate pairs (`candidates`) are `left`, `right`, of which
    stock emits `matched` (the NULL-key filter and the condition TRUE)."""
    n = len(groups)
    left, right = left[matched], right[matched]
    if join_type == "INNER":
        return Emission(left, right, groups[left])
    left_rows, right_rows = np.flatnonzero(sides == LEFT), np.flatnonzero(sides == RIGHT)
    left_matched = np.bincount(left, minlength=n)[left_rows] > 0
    right_matched = np.bincount(right, minlength=n)[right_rows] > 0
    if join_type in (SEMI, ANTI):
        rows = left_rows[left_matched if join_type == SEMI else ~left_matched]
        rows = rows[np.lexsort((rows, groups[rows]))]
        return Emission(rows, np.full(len(rows), NULL), groups[rows])
    parts = []  # (phase, major, kind, minor, left, right): sorted by group, then these in turn
    unmatched_left, unmatched_right = left_rows[~left_matched], right_rows[~right_matched]
    if join_type == "RIGHT":
        parts.append((0, right, 0, left, left, right))
        parts.append((0, unmatched_right, 1, 0, NULL, unmatched_right))
    else:  # LEFT or FULL: left-major pairs, each unmatched left row padded after its (missing) matches
        parts.append((0, left, 0, right, left, right))
        parts.append((0, unmatched_left, 1, 0, unmatched_left, NULL))
        if join_type == "FULL":
            parts.append((1, unmatched_right, 1, 0, NULL, unmatched_right))
    columns = [np.concatenate([np.broadcast_to(np.asarray(p[i], dtype=np.int64), len(p[1])) for p in parts])
               for i in range(6)]
    phase, major, kind, minor, out_left, out_right = columns
    group = groups[np.where(out_left != NULL, out_left, out_right)]
    order = np.lexsort((minor, kind, major, phase, group))
    return Emission(out_left[order], out_right[order], group[order])
