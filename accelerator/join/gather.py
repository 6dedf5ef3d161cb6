"""Rows of a side's held table at given places, taken chunk by chunk.

A side's held rows are a table of many chunks (one per batch that added rows, the spilled files'
batches before them). pyarrow's `take` on such a table copies every chunk of a variable-width
column (`$order`, strings) into one before it picks any row, so each call would cost the whole
state; here each chunk the places fall in is taken from on its own and only the rows taken are
put together, in the order asked."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def rows(table: pa.Table, at: np.ndarray) -> pa.Table:
    """`table.take(at)` (`at`: row numbers, int64, none NULL), as one chunk per column."""
    at = np.asarray(at, dtype=np.int64)
    batches = [b for b in table.to_batches() if b.num_rows]
    if len(batches) <= 1 or len(at) == 0:
        return (pa.Table.from_batches(batches, table.schema) if batches else table).take(
            pa.array(at, pa.int64())).combine_chunks()
    sizes = np.array([b.num_rows for b in batches], dtype=np.int64)
    ends = np.cumsum(sizes)
    which = np.searchsorted(ends, at, side="right")
    in_order = bool((np.diff(which) >= 0).all())
    by_chunk = np.arange(len(at)) if in_order else np.argsort(which, kind="stable")
    sorted_which = which[by_chunk]
    touched = np.flatnonzero(np.diff(np.concatenate([[-1], sorted_which])) != 0)
    bounds = np.append(touched, len(at))
    parts = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        chunk = int(sorted_which[lo])
        local = at[by_chunk[lo:hi]] - (ends[chunk] - sizes[chunk])
        parts.append(batches[chunk].take(pa.array(local, pa.int64())))
    gathered = pa.Table.from_batches(parts, table.schema).combine_chunks()
    if in_order:
        return gathered
    back = np.empty(len(at), dtype=np.int64)
    back[by_chunk] = np.arange(len(at))
    return gathered.take(pa.array(back, pa.int64()))


def column(values: pa.ChunkedArray | pa.Array, at: np.ndarray) -> pa.Array:
    """`values.take(at)` of one column, as one array (see `rows`)."""
    if isinstance(values, pa.Array):
        return values.take(pa.array(np.asarray(at, dtype=np.int64), pa.int64()))
    return rows(pa.table({"c": values}), at).column(0).combine_chunks()
