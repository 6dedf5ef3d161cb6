"""Both inputs' rows of every key: per side, each distinct row once (its key slot, its `$order`
bytes, its fields) with how often it arrived, as stock's `InputSideHasNoUniqueKey` keeps them in a
`MapState<row, count>`, and, for an outer side, its number of associations (the
`OuterJoinRecordStateViews` value `Tuple2<count, numOfAssociations>`; 0 on an inner side). The
rows of a side live in one Arrow table, appended per batch; a dict from each row's key slot and
`$order` bytes to its place in that table finds a batch's rows (`SideRows.places`) for every
backend and join type, at a cost per batch row rather than per held row."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.join.spec import LEFT, ORDER, RIGHT, JoinSpec
from accelerator.sidecar.key_slots import KeySlots

SLOT = "$slot"
_MAX_CHUNKS = 64
#: What one entry of a side's row index takes beyond its row's bytes (the key's bytes object
#: header and slot bytes, the dict slot and the place int; from sys.getsizeof on CPython 3.11),
#: for the state budget.
_INDEX_ENTRY_BYTES = 120


class SideRows:
    """One input's distinct rows: `table` (`$slot`, `$order`, the side's fields), `count` and
    `associations`, and an index from each row's key slot and `$order` bytes to its place in
    `table`, kept as rows are appended, so a batch finds its rows without reading the held ones."""

    def __init__(self, row_schema: pa.Schema):
        self.schema = pa.schema([pa.field(SLOT, pa.int64(), nullable=False),
                                 pa.field(ORDER, pa.binary(), nullable=False)] + list(row_schema))
        self.table = self.schema.empty_table()
        self.count = np.zeros(0, dtype=np.int64)
        self.associations = np.zeros(0, dtype=np.int64)
        self.table_bytes = 0
        self._index: dict[bytes, int] = {}
        self.index_bytes = 0

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    def places(self, slots: np.ndarray, orders: pa.Array) -> tuple[np.ndarray, np.ndarray]:
        """For rows of this side (their key slots and `$order` bytes, in arrival order): each row's
        place once `add` took them (a held row keeps its place, a new distinct row comes after the
        held ones in order of first arrival) and whether the row is a new distinct row's first
        arrival."""
        return self._places(_index_keys(slots, orders))

    def _places(self, keys: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
        get = self._index.get
        places = np.array([get(k, -1) for k in keys], dtype=np.int64)
        first = np.zeros(len(keys), dtype=bool)
        unknown = np.flatnonzero(places < 0)
        if len(unknown):
            held, new = self.num_rows, {}
            places[unknown] = [new.setdefault(keys[at], held + len(new)) for at in unknown.tolist()]
            first[unknown[np.unique(places[unknown], return_index=True)[1]]] = True
        return places, first

    def add(self, rows: pa.Table, counts: np.ndarray) -> None:
        """Adds `rows` (this side's schema), each `counts` times: a row already held (same slot and
        `$order`) counts up, another is appended after the held ones, in the order rows first came."""
        if rows.num_rows == 0:
            return
        keys = _index_keys(rows.column(SLOT).to_numpy(), rows.column(ORDER))
        places, first = self._places(keys)
        arrivals = np.flatnonzero(first)
        held = self.num_rows
        self.count = np.concatenate([self.count, np.zeros(len(arrivals), dtype=np.int64)])
        np.add.at(self.count, places, np.asarray(counts, dtype=np.int64))
        if len(arrivals) == 0:
            return
        taken = rows.take(pa.array(arrivals, pa.int64()))
        self.table = pa.concat_tables([self.table, taken])
        self.table_bytes += taken.nbytes
        self.associations = np.concatenate([self.associations, np.zeros(len(arrivals), dtype=np.int64)])
        new_keys = [keys[at] for at in arrivals.tolist()]
        self._index.update(zip(new_keys, range(held, held + len(new_keys))))
        self.index_bytes += sum(map(len, new_keys)) + _INDEX_ENTRY_BYTES * len(new_keys)
        if self.table.column(0).num_chunks > _MAX_CHUNKS:
            self.table = self.table.combine_chunks()


def _index_keys(slots: np.ndarray, orders: pa.Array) -> list[bytes]:
    """One bytes object per row: its key slot (8 bytes) then its `$order` bytes."""
    if isinstance(orders, pa.ChunkedArray):
        orders = orders.combine_chunks()
    return [slot.to_bytes(8, "little") + order
            for slot, order in zip(np.asarray(slots, dtype=np.int64).tolist(), orders.to_pylist())]


class JoinState:
    def __init__(self, spec: JoinSpec):
        self.spec = spec
        self.sides = (SideRows(spec.side_schema(LEFT)), SideRows(spec.side_schema(RIGHT)))
        self.key_slots = KeySlots(lambda capacity: None)

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        return self.key_slots.nbytes() + sum(s.table_bytes + s.index_bytes + s.count.nbytes + s.associations.nbytes
                                             for s in self.sides)
