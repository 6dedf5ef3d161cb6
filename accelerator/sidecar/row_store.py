"""The rows a stateful stage keeps (a deduplication's kept row per key, a Top-N's top rows), in one
Arrow table addressed by position, and the batch rows a call has not kept yet addressed past them.

A batch's newly kept rows are appended as a chunk; the table is made one chunk again when it has
many (taking from many chunks is slow), and compacted to the rows still kept when the stage finds
it mostly rows no key keeps. Nothing here walks every kept row per batch: the stage says which rows
it keeps, and compaction runs only once the dead rows outnumber the live ones."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

#: Dead rows tolerated beyond the live ones before compaction pays.
COMPACT_SLACK = 1024
_MAX_CHUNKS = 64


class RowStore:
    def __init__(self, schema: pa.Schema):
        self.table = schema.empty_table()
        #: The table's bytes, kept as chunks are added (Table.nbytes walks every chunk).
        self.nbytes = 0

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    def append(self, rows: pa.Table) -> int:
        """Adds `rows` at the end; returns the position of the first."""
        base = self.table.num_rows
        if rows.num_rows:
            self.table = pa.concat_tables([self.table, rows])
            self.nbytes += rows.nbytes
            if self.table.column(0).num_chunks > _MAX_CHUNKS:
                self.table = self.table.combine_chunks()
                self.nbytes = self.table.nbytes
        return base

    def take(self, positions: np.ndarray, columns: list[str] | None = None) -> pa.Table:
        table = self.table if columns is None else self.table.select(columns)
        return table.take(pa.array(positions, pa.int64()))

    def take_with(self, batch: pa.Table, sources: np.ndarray) -> pa.Table:
        """The rows at `sources`: store rows below `num_rows`, batch rows (of this store's fields)
        past them at `num_rows + row`."""
        base = self.table.num_rows
        in_batch = sources >= base
        if in_batch.all():
            return batch.take(pa.array(sources - base, pa.int64()))
        if not in_batch.any():
            return self.take(sources)
        kept = np.flatnonzero(~in_batch)
        fresh = np.flatnonzero(in_batch)
        parts = pa.concat_tables([self.take(sources[kept]), batch.take(pa.array(sources[fresh] - base, pa.int64()))])
        where = np.empty(len(sources), dtype=np.int64)
        where[kept] = np.arange(len(kept))
        where[fresh] = len(kept) + np.arange(len(fresh))
        return parts.take(pa.array(where))

    def needs_compacting(self, live_rows: int) -> bool:
        return self.table.num_rows > 2 * live_rows + COMPACT_SLACK

    def compact(self, live: np.ndarray) -> np.ndarray:
        """Keeps only the rows at the distinct positions `live`, in that order; returns, per former
        position, its new one (-1 for a row dropped)."""
        moved = np.full(self.table.num_rows, -1, dtype=np.int64)
        moved[live] = np.arange(len(live))
        self.table = self.take(live).combine_chunks()
        self.nbytes = self.table.nbytes
        return moved
