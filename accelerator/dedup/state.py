"""The deduplication's state: one slot per key (`KeySlots`) and what stock keeps for it: whether
the key has had a row (keep-first on processing time), else its kept row with that row's RowKind
and, on event time, its rowtime.

Kept rows live in one Arrow table, the store, addressed per slot; a batch's newly kept rows are
appended as a chunk, and the store is compacted to the live rows when it holds more than twice as
many, or made one chunk again when it has many (taking rows from many chunks is slow)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.dedup.spec import DedupSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.sidecar.row_kinds import INSERT

_COMPACT_SLACK = 1024
_MAX_CHUNKS = 64


class DedupState:
    def __init__(self, spec: DedupSpec):
        self.spec = spec
        self.present = np.zeros(0, dtype=bool)
        #: Per slot, the store row of its kept row (-1: none yet).
        self.kept = np.zeros(0, dtype=np.int64)
        #: Per slot, the RowKind byte stock's heap state holds for the kept row (its emission mutates it).
        self.kept_kind = np.zeros(0, dtype=np.int8)
        self.kept_rowtime = np.zeros(0, dtype=np.int64)
        self.store = spec.row_schema.empty_table()
        #: The store's bytes, kept as chunks are added (Table.nbytes walks every chunk).
        self.store_bytes = 0
        self.key_slots = KeySlots(self._grow)

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self.present)
        self.present = np.concatenate([self.present, np.zeros(extra, dtype=bool)])
        self.kept = np.concatenate([self.kept, np.full(extra, -1, dtype=np.int64)])
        self.kept_kind = np.concatenate([self.kept_kind, np.zeros(extra, dtype=np.int8)])
        self.kept_rowtime = np.concatenate([self.kept_rowtime, np.zeros(extra, dtype=np.int64)])

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        return (self.key_slots.nbytes() + self.present.nbytes + self.kept.nbytes + self.kept_kind.nbytes
                + self.kept_rowtime.nbytes + self.store_bytes)

    def keep(self, batch_rows: pa.Table) -> None:
        """Makes the slots' kept rows that point past the store (at `len(store) + i`, row `i` of
        `batch_rows`) rows of the store, then compacts the store when it is mostly dead rows."""
        base = self.store.num_rows
        live = self.key_slots.live_slots()
        fresh = live[self.kept[live] >= base]
        if len(fresh):
            taken = batch_rows.take(pa.array(self.kept[fresh] - base))
            self.kept[fresh] = base + np.arange(len(fresh))
            self.store = pa.concat_tables([self.store, taken])
            self.store_bytes += taken.nbytes
        held = live[self.kept[live] >= 0]
        if self.store.num_rows > 2 * len(held) + _COMPACT_SLACK:
            self.store = self.store.take(pa.array(self.kept[held])).combine_chunks()
            self.kept[held] = np.arange(len(held))
            self.store_bytes = self.store.nbytes
        elif self.store.num_rows and self.store.column(0).num_chunks > _MAX_CHUNKS:
            self.store = self.store.combine_chunks()
            self.store_bytes = self.store.nbytes

    def kept_rows(self, slots: np.ndarray) -> pa.Table:
        return self.store.take(pa.array(self.kept[slots]))
