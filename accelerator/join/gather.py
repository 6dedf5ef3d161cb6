"""Rows of a side's held rows at given places, taken batch by batch.

A side's held rows are many record batches (those added by each batch, the spilled files' batches
before them). pyarrow's `take` on a table of such chunks copies every chunk of a variable-width
column (`$order`, strings) into one before it picks any row, so each call would cost the whole
state; here each batch the places fall in is taken from on its own and only the rows taken are
put together, in the order asked; a binary column without NULLs (`$order`) is gathered natively,
each value copied once (`binary`)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats import native_arrays


def rows(batches: list[pa.RecordBatch], ends: np.ndarray, at: np.ndarray, names: list[str],
         schema: pa.Schema) -> pa.Table:
    """The rows at `at` (row numbers, int64, none NULL) of the table made of `batches` (`ends`: the
    row number after each), their columns `names` (`schema`), as one chunk per column."""
    at = np.asarray(at, dtype=np.int64)
    if len(at) == 0 or not batches:
        return schema.empty_table().combine_chunks().take(pa.array(at, pa.int64()))
    which = np.searchsorted(ends, at, side="right")
    in_order = bool((np.diff(which) >= 0).all())
    by_batch = np.arange(len(at)) if in_order else np.argsort(which, kind="stable")
    sorted_which = which[by_batch]
    bounds = np.append(np.flatnonzero(np.diff(sorted_which, prepend=-1) != 0), len(at))
    parts = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        b = int(sorted_which[lo])
        start = int(ends[b - 1]) if b else 0
        parts.append(batches[b].select(names).take(pa.array(at[by_batch[lo:hi]] - start, pa.int64())))
    gathered = pa.Table.from_batches(parts, schema).combine_chunks()
    if in_order:
        return gathered
    back = np.empty(len(at), dtype=np.int64)
    back[by_batch] = np.arange(len(at))
    return gathered.take(pa.array(back, pa.int64()))


def column(values: pa.ChunkedArray | pa.Array, at: np.ndarray) -> pa.Array:
    """`values.take(at)` (`at`: row numbers, int64, none NULL), as one array."""
    at = np.asarray(at, dtype=np.int64)
    if isinstance(values, pa.Array) or values.num_chunks <= 1 or len(at) == 0:
        single = values if isinstance(values, pa.Array) else values.combine_chunks() if values.num_chunks \
            else pa.array([], values.type)
        return single.take(pa.array(at, pa.int64()))
    chunks = values.chunks
    sizes = np.fromiter(map(len, chunks), dtype=np.int64, count=len(chunks))
    ends = np.cumsum(sizes)
    if len(at) >= ends[-1] // 4:  # most rows: one copy of them all is cheaper than sorting the places
        return pa.concat_arrays(chunks).take(pa.array(at, pa.int64()))
    which = np.searchsorted(ends, at, side="right")
    in_order = bool((np.diff(which) >= 0).all())
    by_chunk = np.arange(len(at)) if in_order else np.argsort(which, kind="stable")
    sorted_which = which[by_chunk]
    bounds = np.append(np.flatnonzero(np.diff(sorted_which, prepend=-1) != 0), len(at))
    parts = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        chunk = int(sorted_which[lo])
        parts.append(chunks[chunk].take(pa.array(at[by_chunk[lo:hi]] - (ends[chunk] - sizes[chunk]), pa.int64())))
    gathered = pa.concat_arrays(parts)
    if in_order:
        return gathered
    back = np.empty(len(at), dtype=np.int64)
    back[by_chunk] = np.arange(len(at))
    return gathered.take(pa.array(back, pa.int64()))


def binary(columns: list[pa.Array], ends: np.ndarray, at: np.ndarray) -> pa.Array:
    """The values at `at` (row numbers, int64) of the binary column without NULLs made of `columns`
    (`ends`: the row number after each), as one array in the order asked, each value copied once
    (`_native.gather_binary`, native/src/gather_binary.rs)."""
    at = np.asarray(at, dtype=np.int64)
    if len(at) == 0:
        return pa.array([], pa.binary())
    which = np.searchsorted(ends, at, side="right")
    starts = np.concatenate([np.zeros(1, dtype=np.int64), np.asarray(ends, dtype=np.int64)])
    rows = at - starts[np.minimum(which, len(columns))]
    offsets, data = _native.gather_binary([native_arrays.message_buffers(c) for c in columns],
                                          which.astype(np.int64), rows)
    return pa.Array.from_buffers(pa.binary(), len(at), [None, pa.py_buffer(offsets), pa.py_buffer(data)])
