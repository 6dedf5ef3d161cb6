"""Each key's top rows: per key slot, how many it holds (at most N) and, in rank order, the store
rows they are; the rows themselves live in one Arrow table, appended per batch and compacted when
mostly rows that left every key's top."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.rank.spec import TopNSpec
from accelerator.sidecar.key_slots import KeySlots

_COMPACT_SLACK = 1024
_MAX_CHUNKS = 64


class TopNState:
    def __init__(self, spec: TopNSpec):
        self.spec = spec
        #: Per slot, how many top rows it holds.
        self.count = np.zeros(0, dtype=np.int64)
        #: Per slot, its top rows' store rows in rank order (-1 past `count`).
        self.top = np.zeros((0, spec.rank_end), dtype=np.int64)
        self.store = spec.row_schema.empty_table()
        #: The store's bytes, kept as chunks are added (Table.nbytes walks every chunk).
        self.store_bytes = 0
        self.key_slots = KeySlots(self._grow)

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self.count)
        self.count = np.concatenate([self.count, np.zeros(extra, dtype=np.int64)])
        self.top = np.concatenate([self.top, np.full((extra, self.spec.rank_end), -1, dtype=np.int64)])

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        return self.key_slots.nbytes() + self.count.nbytes + self.top.nbytes + self.store_bytes

    def keep(self, batch_rows: pa.Table) -> None:
        """Makes the top rows that point past the store (at `len(store) + i`, row `i` of
        `batch_rows`) rows of the store, then compacts the store when it is mostly dead rows."""
        base = self.store.num_rows
        live = self.key_slots.live_slots()
        held = self.top[live]
        fresh = np.unique(held[held >= base])
        if len(fresh):
            taken = batch_rows.take(pa.array(fresh - base))
            self.top[live] = _remap(held, fresh, base + np.arange(len(fresh)))
            self.store = pa.concat_tables([self.store, taken])
            self.store_bytes += taken.nbytes
            held = self.top[live]
        used = np.unique(held[held >= 0])
        if self.store.num_rows > 2 * len(used) + _COMPACT_SLACK:
            self.store = self.store.take(pa.array(used)).combine_chunks()
            self.top[live] = _remap(held, used, np.arange(len(used)))
            self.store_bytes = self.store.nbytes
        elif self.store.num_rows and self.store.column(0).num_chunks > _MAX_CHUNKS:
            self.store = self.store.combine_chunks()
            self.store_bytes = self.store.nbytes


def _remap(held: np.ndarray, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """`held` with each value of sorted `old` replaced by its `new` counterpart; -1 stays."""
    out = held.copy()
    hit = held >= 0
    at = np.searchsorted(old, held[hit])
    inside = at < len(old)
    matched = np.zeros(len(at), dtype=bool)
    matched[inside] = old[at[inside]] == held[hit][inside]
    values = held[hit]
    values[matched] = new[at[matched]]
    out[hit] = values
    return out
