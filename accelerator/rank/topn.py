"""What stock Flink 2.2.1's AppendOnlyTopNFunction emits for a batch, computed for the batch at
once over each key's top rows.

Per input row, stock puts the row into its key's sorted buffer after the rows of an equal sort
key (ties keep arrival order); its rank r is then 1 + the rows sorting before or equal to it.
Nothing is emitted when r > N. Otherwise, with L the rows the key held in its top N before:
- without the row number: -D of the row leaving the top (the N-th, when L = N), then +I row.
- with the row number: each place p from r to min(L, N) changes hands, -U (old row at p, p)
  (with update-befores) then +U (new row at p, p), the new row at r and the others one place down;
  when L < N the row pushed to place L + 1 is +I there.
The rows beyond N stock keeps in its buffer never change what it emits, so a key keeps its top N.

Rows are taken by occurrence level (the earliest row of each key not yet taken): the rows of one
level have distinct keys, so each level is one vectorized step over their keys' top rows, and the
levels run in order (as the deduplication's do). Before each level, the rows that can no longer
enter their key's full top N (sorting at or after its N-th row) leave the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator.rank import order
from accelerator.rank.spec import TopNSpec
from accelerator.rank.state import TopNState
from accelerator.sidecar.row_kinds import DELETE, INSERT, UPDATE_AFTER, UPDATE_BEFORE

_NO_CODE = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Emission:
    """The rows to emit, in order: the batch row each belongs to, its RowKind byte, its rank and
    where its values are: store row `source`, or batch row `source - len(store)`."""

    rows: np.ndarray
    kinds: np.ndarray
    ranks: np.ndarray
    sources: np.ndarray


class _Out:
    def __init__(self):
        self.parts = []

    def add(self, rows, order_in_row, kind, ranks, sources) -> None:
        self.parts.append((rows, order_in_row, np.full(len(rows), kind, dtype=np.int8), ranks, sources))

    def emission(self) -> Emission:
        if not self.parts:
            empty = np.zeros(0, dtype=np.int64)
            return Emission(empty, np.zeros(0, dtype=np.int8), empty, empty)
        rows, order_in_row, kinds, ranks, sources = (np.concatenate(p) for p in zip(*self.parts))
        by = np.lexsort((order_in_row, rows))
        return Emission(rows[by], kinds[by], ranks[by], sources[by])


def choose(spec: TopNSpec, state: TopNState, slots: np.ndarray, rows: pa.Table) -> Emission:
    """The batch's emission; the slots' top rows move past the batch (batch rows at
    `len(store) + row` until `state.keep`)."""
    n, size = rows.num_rows, spec.rank_end
    out = _Out()
    if n == 0:
        return out.emission()
    touched, local = np.unique(slots, return_inverse=True)
    top = state.top[touched].copy()
    count = state.count[touched].copy()
    base = state.store.num_rows
    held = top >= 0
    kept = state.store.take(pa.array(top[held]))
    sort_codes = order.codes(pa.concat_tables([kept.select(rows.column_names), rows]), spec.sort)
    codes = np.full(top.shape, _NO_CODE, dtype=np.int64)
    codes[held] = sort_codes[:len(kept)]
    row_codes = sort_codes[len(kept):]
    places = np.arange(size)
    remaining = np.arange(n)
    while True:
        # A full key's N-th code only falls, so a row sorting at or after it now never enters (its
        # rank stays past N) and changes nothing: it leaves the batch before it takes a level. A
        # hot key's rows then take about N * ln(rows / N) levels (a random row enters a top N of
        # k rows with odds N / k), not one level per row, which made Top-N a seventh as fast.
        t = local[remaining]
        remaining = remaining[(count[t] < size) | (row_codes[remaining] < codes[t, size - 1])]
        if not len(remaining):
            break
        _, first = np.unique(local[remaining], return_index=True)
        first.sort()
        level = remaining[first]
        remaining = np.delete(remaining, first)
        t = local[level]
        before = (codes[t] <= row_codes[level][:, None]).sum(axis=1)  # rank - 1
        inside = before < size
        level, t, before = level[inside], t[inside], before[inside]
        held_before = count[t]
        source = base + level
        if spec.output_rank_number:
            _emit_with_numbers(out, spec, level, before, held_before, top[t], source)
        else:
            full = held_before == size
            out.add(level[full], np.zeros(full.sum(), dtype=np.int64), DELETE, np.full(full.sum(), size),
                    top[t[full], size - 1])
            out.add(level, np.ones(len(level), dtype=np.int64), INSERT, before + 1, source)
        # The row goes in at `before`, the rows from there one place down, the last one out.
        shift = places[None, :] - (places[None, :] > before[:, None])
        rows_top, rows_codes = top[t], codes[t]
        picked = np.take_along_axis(rows_top, shift, axis=1)
        picked_codes = np.take_along_axis(rows_codes, shift, axis=1)
        at = places[None, :] == before[:, None]
        top[t] = np.where(at, source[:, None], picked)
        codes[t] = np.where(at, row_codes[level][:, None], picked_codes)
        count[t] = np.minimum(held_before + 1, size)
    state.top[touched] = top
    state.count[touched] = count
    return out.emission()


def _emit_with_numbers(out: _Out, spec: TopNSpec, level, before, held_before, rows_top, source) -> None:
    """The places from the row's own to the last held (at most N) change hands; a place past the
    held ones is inserted."""
    size = spec.rank_end
    last = np.minimum(held_before, size)  # places 1..last were held
    changes = np.maximum(last - before, 0)
    row_of = np.repeat(np.arange(len(level)), changes)
    step = np.arange(changes.sum()) - np.repeat(np.cumsum(changes) - changes, changes)
    place = before[row_of] + step  # 0-based place changing hands
    old = rows_top[row_of, place]
    new = np.where(step == 0, source[row_of], rows_top[row_of, np.maximum(place - 1, 0)])
    if spec.generate_update_before:
        out.add(level[row_of], 2 * step, UPDATE_BEFORE, place + 1, old)
    out.add(level[row_of], 2 * step + 1, UPDATE_AFTER, place + 1, new)
    grows = held_before < size
    g = np.flatnonzero(grows)
    pushed = np.where(before[g] == held_before[g], source[g], rows_top[g, np.maximum(held_before[g] - 1, 0)])
    out.add(level[g], np.full(len(g), 2 * size + 2), INSERT, held_before[g] + 1, pushed)
