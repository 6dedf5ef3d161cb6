"""The joined rows stock Flink 2.2.1's StreamingJoinOperator emits for a batch, computed for the
batch at once.

Per input row, in arrival order, stock adds the row to its side's state, then emits the row
joined with each row its key holds on the other side, each distinct row as often as it arrived,
in the iteration order of that side's `MapState<row, count>`: with RocksDB, by the rows' serialized
bytes (the 4-byte big-endian length first, so shorter rows first, then the bytes, unsigned). A row
joins what the other side held before the batch and the other side's earlier rows of the batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.join.spec import LEFT, ORDER, RIGHT
from accelerator.join.state import SLOT, JoinState

_ROW = "$i"
_OTHER = "$other"
_SIDE = "$side"
_PLACE = "$place"
_COUNT = "$count"
_LENGTH = "$length"


@dataclass(frozen=True)
class Emission:
    """The joined rows, in emission order: the batch row each belongs to and where its left and
    right values are, as rows of that side's pool (its held rows, then the batch's rows)."""

    rows: np.ndarray
    left: np.ndarray
    right: np.ndarray


def emit(state: JoinState, slots: np.ndarray, sides: np.ndarray, orders: pa.Array) -> Emission:
    """What the batch's rows (their key slots, sides and `$order` bytes, in arrival order) emit,
    joined with the rows `state` holds before the batch and the batch's earlier rows."""
    n = len(slots)
    rows = np.arange(n, dtype=np.int64)
    probe = pa.table({_ROW: rows, SLOT: slots, _OTHER: pa.array(1 - sides, pa.int8())})
    # A side's held rows are read only by the batch's rows of the other side.
    held = pa.concat_tables([_held(side, state.sides[side], np.unique(slots[sides != side])) for side in (LEFT, RIGHT)])
    earlier = pa.table({_PLACE: rows, SLOT: slots, _SIDE: pa.array(sides, pa.int8()), ORDER: orders})
    with_held = probe.join(held, keys=[SLOT, _OTHER], right_keys=[SLOT, _SIDE], join_type="inner",
                           use_threads=False)
    with_held = with_held.take(pa.array(np.repeat(np.arange(with_held.num_rows), with_held.column(_COUNT).to_numpy())))
    with_batch = probe.join(earlier, keys=[SLOT, _OTHER], right_keys=[SLOT, _SIDE], join_type="inner",
                           use_threads=False)
    with_batch = with_batch.filter(pc.less(with_batch.column(_PLACE), with_batch.column(_ROW)))
    other_held = np.array([state.sides[RIGHT].num_rows, state.sides[LEFT].num_rows])  # indexed by the row's side
    batch_rows = with_batch.column(_ROW).to_numpy()
    pairs = pa.table({
        _ROW: pa.concat_arrays([_array(with_held, _ROW), _array(with_batch, _ROW)]),
        _PLACE: np.concatenate([with_held.column(_PLACE).to_numpy(),
                                with_batch.column(_PLACE).to_numpy() + other_held[sides[batch_rows]]]),
        ORDER: pa.concat_arrays([_array(with_held, ORDER), _array(with_batch, ORDER)]),
    })
    pairs = pairs.append_column(_LENGTH, pc.binary_length(pairs.column(ORDER)))
    pairs = pairs.sort_by([(_ROW, "ascending"), (_LENGTH, "ascending"), (ORDER, "ascending")])
    out_rows = pairs.column(_ROW).to_numpy()
    other = pairs.column(_PLACE).to_numpy()
    own = out_rows + np.array([state.sides[LEFT].num_rows, state.sides[RIGHT].num_rows])[sides[out_rows]]
    is_left = sides[out_rows] == LEFT
    return Emission(out_rows, np.where(is_left, own, other), np.where(is_left, other, own))


def _held(side_id: int, side, keys: np.ndarray) -> pa.Table:
    """The rows `side` holds for the key slots `keys` (those the other side's batch rows read), with
    their place in it: the join then hashes only these, not the whole state."""
    places = side.places_of(keys)
    return pa.table({SLOT: side.slots[places], _SIDE: pa.array(np.full(len(places), side_id), pa.int8()),
                     _PLACE: pa.array(places, pa.int64()), _COUNT: side.count[places], ORDER: side.orders(places)})


def _array(table: pa.Table, name: str) -> pa.Array:
    return table.column(name).combine_chunks()
