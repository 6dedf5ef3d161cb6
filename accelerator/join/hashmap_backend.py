"""The joined rows stock Flink 2.2.1's StreamingJoinOperator emits on the hashmap state backend,
and the per-key HashMaps that order them (docs/design/stateful-joins.md).

Per input row, in arrival order, stock adds the row to its side's `MapState<row, count>` (a new
distinct row is put into the key's `java.util.HashMap`; a repeated one only counts up), then emits
the row joined with each row its key holds on the other side, in that map's iteration order, each
as often as it arrived. `KeyMaps` keeps one `hash_order.HashMapOrder` per side and key slot whose
items are the rows' places in the side's state table; a checkpoint writes each key's rows in
iteration order and a restore refills a `newHashMapWithExpectedSize(n)` map in that order, as a
heap restore (and a rescale) does. The copy-on-write rebuild stock makes when a key is touched
while an asynchronous snapshot runs is not modelled: the order is the one stock gives when the
snapshot completes before the key's next row (docs/design/stateful-joins.md says when they differ).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.join.hash_order import HashMapOrder, row_hashes
from accelerator.join.matches import Emission
from accelerator.join.spec import LEFT, ORDER, RIGHT
from accelerator.join.state import SLOT, JoinState

_AT = "$at"
_HELD = "$held"
#: What one modelled entry (a `_Node` in a bin list) and one key's map object take in this process,
#: roughly (node, bin list slot, bin dict share, hash and place ints; a map with its dicts and first
#: bin list; from sys.getsizeof on CPython 3.11), for the state budget.
_ENTRY_BYTES = 180
_MAP_BYTES = 500


class KeyMaps:
    """Per side, each key slot's HashMap over that side's row places."""

    def __init__(self):
        self.maps: tuple[dict[int, HashMapOrder], dict[int, HashMapOrder]] = ({}, {})
        self.entries = 0

    def nbytes(self) -> int:
        """An estimate of the memory the models take, counted in the stage's state budget."""
        return self.entries * _ENTRY_BYTES + (len(self.maps[LEFT]) + len(self.maps[RIGHT])) * _MAP_BYTES

    def iteration_order(self, side: int) -> np.ndarray:
        """Every place of the side's rows, each key's in its map's iteration order."""
        orders = [m.order() for m in self.maps[side].values()]
        return np.concatenate(orders) if orders else np.zeros(0, dtype=np.int64)

    def restore(self, side: int, slots: np.ndarray, places: np.ndarray, orders: pa.Array) -> None:
        """Refills each key's map with its restored rows, in the order they were written (its
        iteration order at the checkpoint), into a map sized as newHashMapWithExpectedSize does."""
        hashes = row_hashes(orders)
        by_slot = np.argsort(slots, kind="stable")
        bounds = np.flatnonzero(np.diff(slots[by_slot])) + 1
        for group in np.split(by_slot, bounds) if len(by_slot) else []:
            m = HashMapOrder.restored(len(group))
            for at in group:
                m.put(int(hashes[at]), int(places[at]))
            self.maps[side][int(slots[group[0]])] = m
            self.entries += len(group)


def emit(state: JoinState, key_maps: KeyMaps, slots: np.ndarray, sides: np.ndarray, orders: pa.Array) -> Emission:
    """What the batch's rows (their key slots, sides and binary rows, in arrival order) emit, and
    puts their new distinct rows into `key_maps` at the places `SideRows.add` then gives them."""
    hashes = row_hashes(orders)
    held = np.array([state.sides[LEFT].num_rows, state.sides[RIGHT].num_rows])
    places = np.zeros(len(slots), dtype=np.int64)
    first = np.zeros(len(slots), dtype=bool)
    pool_of_new: list[np.ndarray] = []
    counts = []
    for side in (LEFT, RIGHT):
        mine = np.flatnonzero(sides == side)
        places[mine], is_first, arrival = _places(state, side, slots[mine], orders.take(pa.array(mine, pa.int64())))
        first[mine] = is_first
        pool_of_new.append(held[side] + mine[arrival])
        counts.append(np.concatenate([state.sides[side].count, np.zeros(len(arrival), dtype=np.int64)]))
    rows, others = [], []
    maps = key_maps.maps
    for i in range(len(slots)):
        side, slot, place = int(sides[i]), int(slots[i]), int(places[i])
        if first[i]:
            m = maps[side].get(slot)
            if m is None:
                m = maps[side][slot] = HashMapOrder()
            m.put(int(hashes[i]), place)
            key_maps.entries += 1
        counts[side][place] += 1
        m = maps[1 - side].get(slot)
        if m is None:
            continue
        order = m.order()
        times = counts[1 - side][order]
        rows.append(np.full(int(times.sum()), i, dtype=np.int64))
        others.append(np.repeat(order, times))
    out_rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    other = np.concatenate(others) if others else np.zeros(0, dtype=np.int64)
    other_side = 1 - sides[out_rows]
    new = other >= held[other_side]
    pool = other.copy()
    for side in (LEFT, RIGHT):
        at = np.flatnonzero(new & (other_side == side))
        pool[at] = pool_of_new[side][other[at] - held[side]]
    own = out_rows + held[sides[out_rows]]
    is_left = sides[out_rows] == LEFT
    return Emission(out_rows, np.where(is_left, own, pool), np.where(is_left, pool, own))


def _places(state: JoinState, side: int, slots: np.ndarray, orders: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For one side's batch rows: each row's place in the side's table once `SideRows.add` took the
    batch (a held row keeps its place, a new distinct row is appended in order of first arrival),
    whether the row is its distinct row's first arrival, and, per new place, which of these rows
    brought it."""
    rows = state.sides[side]
    arrived = pa.table({SLOT: pa.array(slots, pa.int64()), ORDER: orders,
                        _AT: pa.array(np.arange(len(slots)), pa.int64())})
    known = pa.table({SLOT: rows.table.column(SLOT), ORDER: rows.table.column(ORDER),
                      _HELD: pa.array(np.arange(rows.num_rows), pa.int64())})
    found = arrived.join(known, keys=[SLOT, ORDER], join_type="left outer", use_threads=False).sort_by(_AT)
    places = found.column(_HELD).fill_null(-1).to_numpy().copy()
    first = np.zeros(len(slots), dtype=bool)
    arrival: list[int] = []
    new: dict[tuple[int, bytes], int] = {}
    order_values = orders.to_pylist() if (places < 0).any() else None
    for at in np.flatnonzero(places < 0):
        row = (int(slots[at]), order_values[at])
        place = new.get(row)
        if place is None:
            place = new[row] = rows.num_rows + len(arrival)
            arrival.append(int(at))
            first[at] = True
        places[at] = place
    return places, first, np.asarray(arrival, dtype=np.int64)
