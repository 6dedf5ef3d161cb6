"""Both inputs' rows of every key: per side, each distinct row once (its key slot, its `$order`
bytes, its fields) with how often it arrived, as stock's `InputSideHasNoUniqueKey` keeps them in a
`MapState<row, count>`, and, for an outer side, its number of associations (the
`OuterJoinRecordStateViews` value `Tuple2<count, numOfAssociations>`; 0 on an inner side). The
rows of a side live in one Arrow table, appended per batch."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.join.spec import LEFT, ORDER, RIGHT, JoinSpec
from accelerator.sidecar.key_slots import KeySlots

SLOT = "$slot"
_AT = "$at"
_N = "$n"
_HELD = "$held"
_MAX_CHUNKS = 64


class SideRows:
    """One input's distinct rows: `table` (`$slot`, `$order`, the side's fields), `count` and
    `associations`."""

    def __init__(self, row_schema: pa.Schema):
        self.schema = pa.schema([pa.field(SLOT, pa.int64(), nullable=False),
                                 pa.field(ORDER, pa.binary(), nullable=False)] + list(row_schema))
        self.table = self.schema.empty_table()
        self.count = np.zeros(0, dtype=np.int64)
        self.associations = np.zeros(0, dtype=np.int64)
        self.table_bytes = 0

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    def add(self, rows: pa.Table, counts: np.ndarray) -> None:
        """Adds `rows` (this side's schema), each `counts` times: a row already held (same slot and
        `$order`) counts up, another is appended after the held ones, in the order rows first came."""
        if rows.num_rows == 0:
            return
        arrived = pa.table({SLOT: rows.column(SLOT), ORDER: rows.column(ORDER),
                            _AT: pa.array(np.arange(rows.num_rows), pa.int64()), _N: pa.array(counts, pa.int64())})
        distinct = arrived.group_by([SLOT, ORDER], use_threads=False).aggregate([(_AT, "min"), (_N, "sum")])
        held = pa.table({SLOT: self.table.column(SLOT), ORDER: self.table.column(ORDER),
                         _HELD: pa.array(np.arange(self.num_rows), pa.int64())})
        found = distinct.join(held, keys=[SLOT, ORDER], join_type="left outer", use_threads=False) \
            .sort_by(f"{_AT}_min")
        first = found.column(f"{_AT}_min").to_numpy()
        added = found.column(f"{_N}_sum").to_numpy()
        place = found.column(_HELD).fill_null(-1).to_numpy()
        known = place >= 0
        np.add.at(self.count, place[known], added[known])
        if not known.all():
            taken = rows.take(pa.array(first[~known]))
            self.table = pa.concat_tables([self.table, taken])
            self.table_bytes += taken.nbytes
            self.count = np.concatenate([self.count, added[~known]])
            self.associations = np.concatenate([self.associations, np.zeros(int((~known).sum()), dtype=np.int64)])
            if self.table.column(0).num_chunks > _MAX_CHUNKS:
                self.table = self.table.combine_chunks()


class JoinState:
    def __init__(self, spec: JoinSpec):
        self.spec = spec
        self.sides = (SideRows(spec.side_schema(LEFT)), SideRows(spec.side_schema(RIGHT)))
        self.key_slots = KeySlots(lambda capacity: None)

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        return self.key_slots.nbytes() + sum(s.table_bytes + s.count.nbytes + s.associations.nbytes for s in self.sides)
