"""The rows a window join holds: every input row whose window has not fired, in arrival order."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.windowjoin.spec import TRIGGER


class HeldRows:
    """One table of the stage's input rows (transport columns and joined row), in arrival order, so
    each (key, window, side)'s rows keep stock's WindowListState order through fires, snapshots
    and restores (a key's rows are in one key group, which a snapshot keeps in order)."""

    def __init__(self, schema: pa.Schema):
        self.schema = schema
        self.table = schema.empty_table()

    @property
    def entries(self) -> int:
        return self.table.num_rows

    def nbytes(self) -> int:
        return self.table.nbytes

    def add(self, rows: pa.Table) -> None:
        """Holds a copy of `rows`: a call's batch lives in the transport's shared memory, which the
        next call overwrites."""
        copied = rows.cast(self.schema).take(pa.array(np.arange(rows.num_rows), pa.int64()))
        self.table = pa.concat_tables([self.table, copied])

    def take_fired(self, watermark: int) -> pa.Table:
        """Removes and answers the rows whose window's timer fires at `watermark`, in arrival order."""
        table = self.table.combine_chunks()
        fires = table.column(TRIGGER).to_numpy() <= watermark
        if not fires.any():
            self.table = table
            return self.schema.empty_table()
        self.table = table.filter(pa.array(~fires))
        return table.filter(pa.array(fires))

    def by_key_group(self, key_group: str) -> pa.Table:
        """The rows grouped by key group, each group's in arrival order."""
        table = self.table.combine_chunks()
        return table.take(pa.array(np.argsort(table.column(key_group).to_numpy(), kind="stable")))
