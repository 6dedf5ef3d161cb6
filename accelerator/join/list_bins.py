"""Many `java.util.HashMap`s at once, as long as every bin of theirs stays a list
(docs/design/stateful-joins.md, "Output order with the hashmap backend").

While no bucket chain ever reaches 9 entries, a map only grows by load (capacity doubled when its
size passes 0.75 x capacity) and a resize splits each chain keeping its relative order, so its
iteration order is its entries in insertion order, stably sorted by bucket index
`spread(hash) & (capacity - 1)` at the capacity its size gives. A chain reaching 9 entries is what
changes that (`treeifyBin`: a resize below capacity 64, a red-black tree from 64 on), and
`overflowing` finds the maps where one would: those need `hash_order.HashMapOrder`'s exact replay.
"""

from __future__ import annotations

import numpy as np

#: The chain length at which HashMap.putVal calls treeifyBin (TREEIFY_THRESHOLD + 1).
LONGEST_LIST = 8
DEFAULT_CAPACITY = 16


def spread(hash_codes: np.ndarray) -> np.ndarray:
    """HashMap.hash of each BinaryRowData.hashCode, as unsigned 32-bit ints (bucket math only)."""
    h = hash_codes.astype(np.int32).view(np.uint32)
    return h ^ (h >> np.uint32(16))


def threshold(capacity: np.ndarray) -> np.ndarray:
    """The size a table of `capacity` holds before it doubles: `(int) (capacity * 0.75f)`."""
    return capacity * 3 // 4


def load_capacity(start: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The capacity a map whose table was allocated at `start` buckets has at `sizes` entries,
    growing by load alone."""
    capacity = np.asarray(start, dtype=np.int64).copy()
    while True:
        grow = sizes > threshold(capacity)
        if not grow.any():
            return capacity
        capacity[grow] <<= 1


def overflowing(start: np.ndarray, before: np.ndarray, after: np.ndarray, owner: np.ndarray, rank: np.ndarray,
                spreads: np.ndarray) -> np.ndarray:
    """Which maps get a chain of more than LONGEST_LIST entries while they grow from `before` to
    `after` entries (their table allocated at `start` buckets, chains all lists at `before`).

    `owner`, `rank` and `spreads` give every entry of these maps: its map's index, its place in
    insertion order and its spread hash. A chain is longest at the last put before the table
    doubles, so each capacity the map passes through is checked with the entries it held then."""
    start = np.asarray(start, dtype=np.int64)
    first = load_capacity(start, np.maximum(before, 1))
    last = load_capacity(start, after)
    # A map of at most LONGEST_LIST entries cannot hold a longer chain.
    checked = after > LONGEST_LIST
    bad = np.zeros(len(start), dtype=bool)
    if not checked.any():
        return bad
    held = checked[owner]
    owner, rank, spreads = owner[held], rank[held], spreads[held]
    capacity = first.copy()
    while True:
        live = checked & (capacity <= last)
        if not live.any():
            return bad
        # The entries a table of `capacity` buckets holds just before it doubles (or at `after`).
        holds = np.where(capacity < last, threshold(capacity) + 1, after)
        at = live[owner] & (rank < holds[owner])
        # Each live map's buckets numbered after the previous live map's: one count per chain.
        buckets = np.where(live, capacity, 0)
        base = np.cumsum(buckets) - buckets
        owners = owner[at]
        lengths = np.bincount(base[owners] + (spreads[at].astype(np.int64) & (capacity[owners] - 1)),
                              minlength=int(buckets.sum()))
        # A chain's map: the last one whose buckets start at or before it (a map not live has none).
        bad[np.searchsorted(base, np.flatnonzero(lengths > LONGEST_LIST), side="right") - 1] = True
        capacity = np.where(live, capacity << 1, capacity)
