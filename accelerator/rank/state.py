"""Each key's top rows: per key slot, how many it holds (at most N) and, in rank order, the
positions of its rows in the row store (`RowStore`). Each kept row is at one place of one key, so
the rows a batch brings in are found among the places of the keys it touched, and the rows still
kept are counted by the keys' counts: no step walks every key per batch."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.rank.spec import TopNSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.sidecar.row_store import RowStore


class TopNState:
    def __init__(self, spec: TopNSpec):
        self.spec = spec
        #: Per slot, how many top rows it holds.
        self.count = np.zeros(0, dtype=np.int64)
        #: Per slot, its top rows' store positions in rank order (-1 past `count`).
        self.top = np.zeros((0, spec.rank_end), dtype=np.int64)
        self.rows = RowStore(spec.row_schema)
        self.key_slots = KeySlots(self._grow)

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self.count)
        self.count = np.concatenate([self.count, np.zeros(extra, dtype=np.int64)])
        self.top = np.concatenate([self.top, np.full((extra, self.spec.rank_end), -1, dtype=np.int64)])

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        return self.key_slots.nbytes() + self.count.nbytes + self.top.nbytes + self.rows.nbytes

    def keep(self, batch_rows: pa.Table, slots: np.ndarray) -> None:
        """Makes the top rows of the distinct `slots` that point past the store (at `len(store) + i`,
        row `i` of `batch_rows`) rows of the store, then compacts the store when it is mostly rows
        no key keeps."""
        base = self.rows.num_rows
        held = self.top[slots]
        fresh = held >= base
        if fresh.any():
            batch_at = held[fresh]
            order = np.argsort(batch_at)  # the batch's rows in batch order
            self.rows.append(batch_rows.take(pa.array(batch_at[order] - base)))
            moved = np.empty(len(batch_at), dtype=np.int64)
            moved[order] = base + np.arange(len(batch_at))
            held[fresh] = moved
            self.top[slots] = held
        if self.rows.needs_compacting(int(self.count.sum())):
            live = self.key_slots.live_slots()
            places = self.top[live]
            moved = self.rows.compact(places[places >= 0])
            self.top[live] = np.where(places >= 0, moved[places], -1)
