"""Where a side's distinct rows are in its state table, found by a 64-bit hash of each row's key
slot and `$order` bytes: the held rows' hashes sorted, with their places, as two numpy arrays (16
bytes per held row, no Python object per row; `sorted_runs`). A batch's rows are looked up at once
by binary search; a hash found is checked against the held row's slot and bytes (`same`), so two rows whose
hashes collide are still told apart, and a hash held by several rows is resolved row by row."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.join.sorted_runs import SortedRuns

_SEED = np.uint64(0x9E3779B97F4A7C15)
_BYTE_BASE = np.uint64(0x100000001B3)
_powers = np.ones(1, dtype=np.uint64)

#: The bytes one held row takes in the index: its hash and its place.
ENTRY_BYTES = 16


def row_key_hashes(slots: np.ndarray, orders: pa.Array) -> np.ndarray:
    """A 64-bit hash (uint64) of each row's key slot and `$order` bytes: a polynomial over the
    bytes, mixed with the slot and the length by splitmix64's finalizer."""
    orders = orders.combine_chunks() if isinstance(orders, pa.ChunkedArray) else orders
    n = len(orders)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    buffers = orders.buffers()
    offset_type = np.int64 if pa.types.is_large_binary(orders.type) else np.int32
    offsets = np.frombuffer(buffers[1], dtype=offset_type)[orders.offset:orders.offset + n + 1].astype(np.int64)
    first, lengths = offsets[0], np.diff(offsets)
    data = np.frombuffer(buffers[2], dtype=np.uint8)[first:offsets[-1]] if buffers[2] is not None \
        else np.zeros(0, dtype=np.uint8)
    position = np.arange(len(data), dtype=np.int64) - np.repeat(offsets[:-1] - first, lengths)
    sums = np.concatenate([np.zeros(1, dtype=np.uint64),
                           np.cumsum((data.astype(np.uint64) + np.uint64(1)) * _power(position), dtype=np.uint64)])
    ends = offsets - first
    polynomial = sums[ends[1:]] - sums[ends[:-1]]
    mixed = _mix(np.asarray(slots, dtype=np.int64).view(np.uint64) + _SEED)
    return _mix(polynomial ^ mixed ^ (lengths.astype(np.uint64) * _SEED))


def _power(position: np.ndarray) -> np.ndarray:
    """`_BYTE_BASE` to each position's power, modulo 2^64."""
    global _powers
    need = int(position.max()) + 1 if len(position) else 1
    if need > len(_powers):
        grown = np.full(max(need, 2 * len(_powers)), _BYTE_BASE, dtype=np.uint64)
        grown[0] = 1
        _powers = np.cumprod(grown, dtype=np.uint64)
    return _powers[position]


def _mix(x: np.ndarray) -> np.ndarray:
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


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
    rows = np.arange(len(hashes), dtype=np.int64)
    differ = np.flatnonzero(~same(firsts, rows))
    if len(differ):
        # Rows whose hash another row of the batch has, with other bytes: compared one by one.
        for row in differ.tolist():
            peers = np.flatnonzero(group[:row] == group[row])
            matched = peers[same(peers, np.full(len(peers), row, dtype=np.int64))] if len(peers) else peers
            firsts[row] = matched[0] if len(matched) else row
    return firsts
