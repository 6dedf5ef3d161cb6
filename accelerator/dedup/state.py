"""The deduplication's state: one slot per key (`KeySlots`) and what stock keeps for it: whether
the key has had a row (keep-first on processing time), else its kept row with that row's RowKind
and, on event time, its rowtime.

Kept rows live in the row store (`RowStore`), addressed per slot; a batch's newly kept rows are
found among the slots the batch touched and appended, and the store is compacted to the kept rows
when it holds more than about twice as many (every key keeps one row once it has had one).

Keys are found through `KeyIds`' dict alone (`sorted_keys=False`): a deduplication meets new keys
in most batches (Nexmark q18: a third of the rows), and inserting them into the sorted copy moved
all of it every batch."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.dedup.spec import DedupSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.sidecar.row_store import RowStore


class DedupState:
    def __init__(self, spec: DedupSpec):
        self.spec = spec
        self.present = np.zeros(0, dtype=bool)
        #: Per slot, the store position of its kept row (-1: none yet).
        self.kept = np.zeros(0, dtype=np.int64)
        #: Per slot, the RowKind byte stock's heap state holds for the kept row (its emission mutates it).
        self.kept_kind = np.zeros(0, dtype=np.int8)
        self.kept_rowtime = np.zeros(0, dtype=np.int64)
        self.rows = RowStore(spec.row_schema)
        self.key_slots = KeySlots(self._grow, sorted_keys=False)

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
                + self.kept_rowtime.nbytes + self.rows.nbytes)

    def keep(self, batch_rows: pa.Table, slots: np.ndarray) -> None:
        """Makes the kept rows of the distinct `slots` that point past the store (at `len(store) + i`,
        row `i` of `batch_rows`) rows of the store, then compacts the store when it is mostly rows
        no key keeps."""
        base = self.rows.num_rows
        fresh = slots[self.kept[slots] >= base]
        if len(fresh):
            fresh = fresh[np.argsort(self.kept[fresh])]  # the batch's rows in batch order
            self.rows.append(batch_rows.take(pa.array(self.kept[fresh] - base)))
            self.kept[fresh] = base + np.arange(len(fresh))
        if self.rows.needs_compacting(self.key_slots.entries):
            live = self.key_slots.live_slots()
            held = live[self.kept[live] >= 0]
            moved = self.rows.compact(self.kept[held])
            self.kept[held] = moved[self.kept[held]]

    def kept_rows(self, slots: np.ndarray) -> pa.Table:
        return self.rows.take(self.kept[slots])
