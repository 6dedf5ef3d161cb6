"""Where a side's distinct rows are in its state table, found by a 64-bit hash of each row's key
slot and `$order` bytes: the held rows' hashes sorted, with their places, as two numpy arrays (16
bytes per held row, no Python object per row; `sorted_runs`). A batch's rows are looked up at once
by binary search; a hash found is checked against the held row's slot and bytes (`same`), so two rows whose
hashes collide are still told apart, and a hash held by several rows is resolved row by row."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats import native_arrays
from accelerator.join.sorted_runs import SortedRuns

#: The bytes one held row takes in the index: its hash and its place.
ENTRY_BYTES = 16


def row_key_hashes(slots: np.ndarray, orders: pa.Array) -> np.ndarray:
    """A 64-bit hash (uint64) of each row's key slot and `$order` bytes: a polynomial over the
    bytes, mixed with the slot and the length by splitmix64's finalizer (`_native.row_key_hashes`,
    native/src/row_hashes.rs)."""
    orders = orders.combine_chunks() if isinstance(orders, pa.ChunkedArray) else orders
    hashes = np.empty(len(orders), dtype=np.uint64)
    if len(orders):
        _native.row_key_hashes(np.ascontiguousarray(slots, dtype=np.int64), native_arrays.message_buffers(orders), hashes)
    return hashes


#: `same(places, rows)`: per pair, whether held row `places[i]` has batch row `rows[i]`'s slot and bytes.
Same = Callable[[np.ndarray, np.ndarray], np.ndarray]


class RowIndex:
    """The held rows' hashes with, for each, its place (`sorted_runs.SortedRuns`)."""

    def __init__(self):
        self._runs = SortedRuns(np.uint64)

    @property
    def nbytes(self) -> int:
        return self._runs.nbytes

    def find(self, hashes: np.ndarray, same: Same) -> np.ndarray:
        """Each batch row's place among the held rows (its `hashes`; `same` compares it with a held
        row), or -1 for a row not held."""
        found = np.full(len(hashes), -1, dtype=np.int64)
        for lo, hi, places in self._runs.ranges(hashes):
            open_ = found < 0
            single = np.flatnonzero(open_ & (hi - lo == 1))
            if len(single):
                candidates = places[lo[single]]
                matched = same(candidates, single)
                found[single[matched]] = candidates[matched]
            for row in np.flatnonzero(open_ & (hi - lo > 1)).tolist():
                candidates = places[lo[row]:hi[row]]
                matched = same(candidates, np.full(len(candidates), row, dtype=np.int64))
                if matched.any():
                    found[row] = candidates[np.argmax(matched)]
        return found

    def insert(self, hashes: np.ndarray, places: np.ndarray) -> None:
        """Takes new held rows (their hashes and places)."""
        self._runs.insert(hashes, places)


def first_of_each(hashes: np.ndarray, same: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """For rows of one batch (their `hashes`; `same(a, b)` compares batch rows pairwise), the batch
    row each row first arrived as: rows alike share the first one's number."""
    if len(hashes) == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, group = np.unique(hashes, return_index=True, return_inverse=True)
    firsts = first[group].astype(np.int64)
    # Only a row whose hash an earlier row has is compared (most rows' hashes are their own).
    later = np.flatnonzero(firsts != np.arange(len(hashes), dtype=np.int64))
    differ = later[~same(firsts[later], later)] if len(later) else later
    if len(differ):
        # Rows whose hash another row of the batch has, with other bytes: compared one by one.
        for row in differ.tolist():
            peers = np.flatnonzero(group[:row] == group[row])
            matched = peers[same(peers, np.full(len(peers), row, dtype=np.int64))] if len(peers) else peers
            firsts[row] = matched[0] if len(matched) else row
    return firsts
