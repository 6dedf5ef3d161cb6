"""The joined rows stock Flink 2.2.1's StreamingJoinOperator emits on the hashmap state backend,
and the per-key HashMaps that order them (docs/design/stateful-joins.md).

Per input row, in arrival order, stock adds the row to its side's `MapState<row, count>` (a new
distinct row is put into the key's `java.util.HashMap`; a repeated one only counts up), then emits
the row joined with each row its key holds on the other side, in that map's iteration order, each
as often as it arrived. `KeyMaps` keeps, per side and key slot, what orders that map: its entries
are the rows' places in the side's state table, put in place order. While a map's bins stay lists
(`list_bins`) its order follows from the places' hashes, its table's first capacity and its size,
so a batch's joined rows are worked out for all such keys at once; a map where a chain would reach
9 entries is replayed exactly by a `hash_order.HashMapOrder` from then on, and the rows reading it
are walked one by one. A checkpoint writes each key's rows in iteration order and a restore
refills a `newHashMapWithExpectedSize(n)` map in that order, as a heap restore (and a rescale)
does. The copy-on-write rebuild stock makes when a key is touched while an asynchronous snapshot
runs is not modelled: the order is the one stock gives when the snapshot completes before the
key's next row (docs/design/stateful-joins.md says when they differ).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.join import list_bins
from accelerator.exchange.key_groups import binary_row_hashes
from accelerator.join.hash_order import HashMapOrder, expected_size_capacities
from accelerator.join.matches import Emission
from accelerator.join.sorted_runs import appended
from accelerator.join.spec import LEFT, RIGHT
from accelerator.join.state import JoinState

#: What one exactly modelled entry (a `_Node` in a bin list) and one such map object take in this
#: process, roughly (node, bin list slot, bin dict share, hash and place ints; a map with its dicts
#: and first bin list; from sys.getsizeof on CPython 3.11), for the state budget.
_ENTRY_BYTES = 180
_MAP_BYTES = 500


class KeyMaps:
    """Per side: each place's row hash (its key slot is the state's, `SideRows.slots`), and per key
    slot its map's entry count, the capacity its table was allocated at (16 for `new HashMap<>()`, a
    restore's otherwise) and, once a chain outgrew a list, its exact model in `maps`."""

    def __init__(self, state: JoinState):
        self.state = state
        self.maps: tuple[dict[int, HashMapOrder], dict[int, HashMapOrder]] = ({}, {})
        self.hashes = [np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32)]
        self.size = [np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)]
        self.start = [np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)]
        self.exact = [np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)]

    @property
    def entries(self) -> int:
        return len(self.hashes[LEFT]) + len(self.hashes[RIGHT])

    def nbytes(self) -> int:
        """An estimate of the memory the maps' description takes, counted in the stage's state budget."""
        arrays = sum(a.nbytes for a in self.hashes + self.size + self.start + self.exact)
        exact = sum(m.size for side in self.maps for m in side.values())
        return arrays + exact * _ENTRY_BYTES + (len(self.maps[LEFT]) + len(self.maps[RIGHT])) * _MAP_BYTES

    def reserve(self, slots: int) -> None:
        """Makes the per-slot arrays hold `slots` key slots (a new slot's table starts at 16)."""
        have = len(self.size[LEFT])
        if slots <= have:
            return
        grown = max(slots, 2 * have, 64)
        for side in (LEFT, RIGHT):
            self.size[side] = np.concatenate([self.size[side], np.zeros(grown - have, dtype=np.int64)])
            self.start[side] = np.concatenate([self.start[side],
                                               np.full(grown - have, list_bins.DEFAULT_CAPACITY, dtype=np.int64)])
            self.exact[side] = np.concatenate([self.exact[side], np.zeros(grown - have, dtype=bool)])

    def iteration_order(self, side: int, rank: np.ndarray) -> np.ndarray:
        """Every place of the side's rows, by the `rank` of their key slots (per slot), each key's
        in its map's iteration order."""
        slot_of, hashes = self.slot_of(side), self.hashes[side]
        capacity = list_bins.load_capacity(self.start[side], self.size[side])[slot_of]
        buckets = list_bins.spread(hashes).astype(np.int64) & (capacity - 1)
        # Buckets are below 2**30 (Java's largest table), ranks below 2**32: one int64 key, place order kept.
        order = np.argsort((rank[slot_of] << 31) | buckets, kind="stable")
        by_rank = rank[slot_of[order]]
        for slot, m in self.maps[side].items():
            lo, hi = np.searchsorted(by_rank, [rank[slot], rank[slot] + 1])
            order[lo:hi] = m.order()
        return order

    def restore(self, side: int, slots: np.ndarray, places: np.ndarray, orders: pa.Array) -> None:
        """Refills each key's map with its restored rows, in the order they were written (its
        iteration order at the checkpoint), into a map sized as newHashMapWithExpectedSize does."""
        if len(slots) == 0:
            return
        self.check_places(side, int(places[0]), "a restore")
        hashes = binary_row_hashes(orders)
        self.reserve(int(slots.max()) + 1)
        keys, owner, sizes = np.unique(slots, return_inverse=True, return_counts=True)
        starts = expected_size_capacities(sizes)
        self.start[side][keys] = starts
        self.add(side, hashes, slots)
        by_key = np.argsort(owner, kind="stable")
        rank = np.empty(len(slots), dtype=np.int64)
        rank[by_key] = np.arange(len(slots)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        bad = list_bins.overflowing(starts, np.zeros(len(keys), dtype=np.int64), sizes, owner, rank,
                                    list_bins.spread(hashes))
        for k in np.flatnonzero(bad):
            self._replay(side, int(keys[k]))

    def slot_of(self, side: int) -> np.ndarray:
        """Each held place's key slot on `side` (the places `add` took, once the state holds them)."""
        return self.state.sides[side].slots

    def check_places(self, side: int, first_new: int, what: str) -> None:
        """Fails unless the side's next new row takes place `first_new`, the place after the last one
        these maps hold: the maps describe the side's state table row for row."""
        if first_new != len(self.hashes[side]):
            raise ValueError(f"{what} adds side {side}'s rows at place {first_new}, but the key maps hold"
                             f" {len(self.hashes[side])} places of it: the maps and the side's state table went"
                             f" apart; restart the job from its last checkpoint")

    def add(self, side: int, hashes: np.ndarray, slots: np.ndarray) -> None:
        """Takes the side's new places (their row hashes and key slots, in place order) as entries
        of their keys' maps (an exact model gets its puts from `emit`'s walk)."""
        self.hashes[side] = appended(self.hashes[side], hashes.astype(np.int32))
        self.size[side] += np.bincount(slots, minlength=len(self.size[side]))

    def _replay(self, side: int, slot: int) -> HashMapOrder:
        """The exact model of a key's map, its held entries put again in place order: from now on
        the key's order on this side comes from it."""
        m = HashMapOrder(int(self.start[side][slot]))
        for place in np.flatnonzero(self.slot_of(side) == slot).tolist():
            m.put(int(self.hashes[side][place]), place)
        self.maps[side][slot] = m
        self.exact[side][slot] = True
        return m


def emit(state: JoinState, key_maps: KeyMaps, slots: np.ndarray, sides: np.ndarray, orders: pa.Array) -> Emission:
    """What the batch's rows (their key slots, sides and binary rows, in arrival order) emit, and
    puts their new distinct rows into `key_maps` at the places `SideRows.add` then gives them."""
    n = len(slots)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Emission(empty, empty, empty)
    key_maps.reserve(int(slots.max()) + 1)
    hashes = binary_row_hashes(orders)
    held = [state.sides[LEFT].num_rows, state.sides[RIGHT].num_rows]
    touched = np.unique(slots)
    places = np.zeros(n, dtype=np.int64)
    first = np.zeros(n, dtype=bool)
    nearby, new_rows = [], []
    for side in (LEFT, RIGHT):
        key_maps.check_places(side, held[side], "a batch")
        mine = np.flatnonzero(sides == side)
        places[mine], first[mine] = state.sides[side].places(slots[mine], orders.take(pa.array(mine, pa.int64())))
        nearby.append(state.sides[side].places_of(touched))
        new_rows.append(mine[first[mine]])
    _go_exact(key_maps, slots, hashes, nearby, new_rows)
    own_exact = np.where(sides == LEFT, key_maps.exact[LEFT][slots], key_maps.exact[RIGHT][slots])
    exact_reads = np.where(sides == LEFT, key_maps.exact[RIGHT][slots], key_maps.exact[LEFT][slots])
    walked = exact_reads | (first & own_exact)
    pair_rows, pair_places = [], []
    for other in (LEFT, RIGHT):
        readers = np.flatnonzero((sides == 1 - other) & ~exact_reads)
        r, p = _list_pairs(key_maps, other, slots, readers, nearby[other], new_rows[other], hashes, held[other], n)
        pair_rows.append(r)
        pair_places.append(p)
    r, p = _walk(key_maps, np.flatnonzero(walked), slots, sides, places, first, hashes, exact_reads)
    pair_rows.append(r)
    pair_places.append(p)
    rows = np.concatenate(pair_rows)
    by_row = np.argsort(rows, kind="stable")
    rows, other = rows[by_row], np.concatenate(pair_places)[by_row]
    times = _times(state, rows, other, sides, places, held)
    out_rows, other = np.repeat(rows, times), np.repeat(other, times)
    for side in (LEFT, RIGHT):
        key_maps.add(side, hashes[new_rows[side]], slots[new_rows[side]])
    other_side = 1 - sides[out_rows]
    pool = other.copy()
    for side in (LEFT, RIGHT):
        at = np.flatnonzero((other >= held[side]) & (other_side == side))
        pool[at] = held[side] + new_rows[side][other[at] - held[side]]
    own = out_rows + np.array(held)[sides[out_rows]]
    is_left = sides[out_rows] == LEFT
    return Emission(out_rows, np.where(is_left, own, pool), np.where(is_left, pool, own))


def _go_exact(key_maps: KeyMaps, slots: np.ndarray, hashes: np.ndarray, nearby: list[np.ndarray],
              new_rows: list[np.ndarray]) -> None:
    """Replays exactly, from the entries held before the batch, each list map whose chains the
    batch's new entries would grow past a list."""
    for side in (LEFT, RIGHT):
        new = new_rows[side][~key_maps.exact[side][slots[new_rows[side]]]]
        growing = np.unique(slots[new])
        if len(growing) == 0:
            continue
        is_growing = np.zeros(len(key_maps.size[side]), dtype=bool)
        is_growing[growing] = True
        held_slots = key_maps.slot_of(side)[nearby[side]]
        held_places = nearby[side][is_growing[held_slots]]
        entry_slots = np.concatenate([held_slots[is_growing[held_slots]], slots[new]])
        entry_spreads = list_bins.spread(np.concatenate([key_maps.hashes[side][held_places], hashes[new]]))
        in_key_order = np.argsort(entry_slots, kind="stable")  # held places, then new ones: place order
        owner = np.searchsorted(growing, entry_slots)
        before = key_maps.size[side][growing]
        added = np.bincount(owner[len(held_places):], minlength=len(growing))
        rank = np.empty(len(owner), dtype=np.int64)
        starts = np.cumsum(before + added) - (before + added)
        rank[in_key_order] = np.arange(len(owner)) - np.repeat(starts, before + added)
        bad = list_bins.overflowing(key_maps.start[side][growing], before, before + added, owner, rank, entry_spreads)
        for slot in growing[bad].tolist():
            key_maps._replay(side, slot)


def _list_pairs(key_maps: KeyMaps, other: int, slots: np.ndarray, readers: np.ndarray, nearby: np.ndarray,
                new_rows: np.ndarray, hashes: np.ndarray, held: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For the batch rows `readers`, whose key's map on side `other` is all lists: (reader, place)
    per row that map holds when the reader arrives, in its iteration order."""
    entry_slots = np.concatenate([key_maps.slot_of(other)[nearby], slots[new_rows]])
    entry_places = np.concatenate([nearby, held + np.arange(len(new_rows))])
    entry_hashes = np.concatenate([key_maps.hashes[other][nearby], hashes[new_rows]])
    by_key = np.argsort(entry_slots, kind="stable")  # held places, then new ones: place order
    entry_slots, entry_places, entry_hashes = entry_slots[by_key], entry_places[by_key], entry_hashes[by_key]
    reader_slots = slots[readers]
    # A map holds its entries from before the batch and the batch's new ones that arrived earlier.
    arrived = np.sort(slots[new_rows] * (n + 1) + new_rows)
    earlier = np.searchsorted(arrived, reader_slots * (n + 1) + readers) - np.searchsorted(arrived, reader_slots * (n + 1))
    held_now = key_maps.size[other][reader_slots] + earlier
    reading = held_now > 0
    readers, reader_slots, held_now = readers[reading], reader_slots[reading], held_now[reading]
    if len(readers) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    first_entry = np.searchsorted(entry_slots, reader_slots)
    total = int(held_now.sum())
    pair_rows = np.repeat(readers, held_now)
    offsets = np.arange(total) - np.repeat(np.cumsum(held_now) - held_now, held_now)
    entries = np.repeat(first_entry, held_now) + offsets
    capacity = np.repeat(list_bins.load_capacity(key_maps.start[other][reader_slots], held_now), held_now)
    buckets = list_bins.spread(entry_hashes[entries]).astype(np.int64) & (capacity - 1)
    in_order = np.argsort(pair_rows * (1 << 32) + buckets, kind="stable")
    return pair_rows[in_order], entry_places[entries[in_order]]


def _walk(key_maps: KeyMaps, walked: np.ndarray, slots: np.ndarray, sides: np.ndarray, places: np.ndarray,
          first: np.ndarray, hashes: np.ndarray, exact_reads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row by row, the batch rows that put into or read from an exactly modelled map: (reader,
    place) per row the read map holds, in its iteration order."""
    rows, others = [], []
    maps = key_maps.maps
    for i in walked.tolist():
        side, slot = int(sides[i]), int(slots[i])
        if first[i] and key_maps.exact[side][slot]:
            maps[side][slot].put(int(hashes[i]), int(places[i]))
        if exact_reads[i]:
            order = maps[1 - side][slot].order()
            rows.append(np.full(len(order), i, dtype=np.int64))
            others.append(order)
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(rows), np.concatenate(others)


def _times(state: JoinState, rows: np.ndarray, other: np.ndarray, sides: np.ndarray, places: np.ndarray,
           held: list[int]) -> np.ndarray:
    """How often each (reader, place of the other side) pair's row has arrived when the reader
    arrives: its count before the batch and its arrivals in the batch before the reader."""
    n = len(sides)
    times = np.zeros(len(rows), dtype=np.int64)
    for side in (LEFT, RIGHT):
        at = np.flatnonzero(sides[rows] != side)
        mine = np.flatnonzero(sides == side)
        arrivals = np.sort(places[mine] * (n + 1) + mine)
        place = other[at]
        before = np.searchsorted(arrivals, place * (n + 1) + rows[at]) - np.searchsorted(arrivals, place * (n + 1))
        old = place < held[side]
        before[old] += state.sides[side].count[place[old]]
        times[at] = before
    return times
