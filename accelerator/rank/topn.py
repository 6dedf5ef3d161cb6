"""What stock Flink 2.2.1's AppendOnlyTopNFunction emits for a batch, over each key's top rows.

Per input row, stock puts the row into its key's sorted buffer after the rows of an equal sort
key (ties keep arrival order); its rank r is then 1 + the rows sorting before or equal to it.
Nothing is emitted when r > N. Otherwise, with L the rows the key held in its top N before:
- without the row number: -D of the row leaving the top (the N-th, when L = N), then +I row.
- with the row number: each place p from r to min(L, N) changes hands, -U (old row at p, p)
  (with update-befores) then +U (new row at p, p), the new row at r and the others one place down;
  when L < N the row pushed to place L + 1 is +I there.
The rows beyond N stock keeps in its buffer never change what it emits, so a key keeps its top N.

The batch's sort keys and the touched keys' kept ones are ranked together into dense codes by one
Arrow sort (`order.codes`); the native kernel (`native/src/top_n.rs`) then takes the rows one by
one in arrival order, as stock does, over the touched keys' top N places of store positions and
codes. Taking the rows by occurrence level in numpy instead (the earliest row of each key not yet
taken, one vectorized step per level) cost dozens of steps per batch on Nexmark's hot auctions,
most of the stage's time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.rank import order
from accelerator.rank.spec import TopNSpec
from accelerator.rank.state import TopNState

_NO_CODE = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Emission:
    """The rows to emit, in order: the batch row each belongs to, its RowKind byte, its rank and
    where its values are: store row `source`, or batch row `source - len(store)`; and the
    distinct key slots the batch touched."""

    rows: np.ndarray
    kinds: np.ndarray
    ranks: np.ndarray
    sources: np.ndarray
    touched: np.ndarray


def choose(spec: TopNSpec, state: TopNState, slots: np.ndarray, rows: pa.Table) -> Emission:
    """The batch's emission; the slots' top rows move past the batch (batch rows at
    `len(store) + row` until `state.keep`)."""
    touched, local = np.unique(slots, return_inverse=True)
    top = state.top[touched]
    count = state.count[touched]
    held = top >= 0
    sort_names = [f.name for f in spec.sort]
    kept = state.rows.take(top[held], sort_names)
    sort_codes = order.codes(pa.concat_tables([kept, rows.select(sort_names)]), spec.sort)
    codes = np.full(top.shape, _NO_CODE, dtype=np.int64)
    codes[held] = sort_codes[:kept.num_rows]
    buffers = _native.top_n(np.ascontiguousarray(local, dtype=np.int64),
                            np.ascontiguousarray(sort_codes[kept.num_rows:]), top, codes, count,
                            spec.rank_end, state.rows.num_rows, spec.output_rank_number,
                            spec.generate_update_before)
    batch_rows, kinds, ranks, sources = (np.frombuffer(b, dtype=t) for b, t in
                                         zip(buffers, (np.int64, np.int8, np.int64, np.int64)))
    state.top[touched] = top
    state.count[touched] = count
    return Emission(batch_rows, kinds, ranks, sources, touched)
