"""The keys a stateful stage holds state for: one slot per key, the key's id in `KeyIds` (so slots
are made in the order keys first appear and a freed slot is reused by a later key), plus the key
group of each slot and which slots are in use. A slot lives until the stage frees it (a group
aggregate whose key's rows were all retracted). Each stage keeps its own per-slot columns beside
it, grown with `grow` whenever the slots outgrow them."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.sidecar.key_ids import INITIAL_CAPACITY, KeyIds


class KeySlots(KeyIds):
    def __init__(self, grow: Callable[[int], None], sorted_keys: bool = True):
        """`grow(capacity)` makes the stage's per-slot columns hold `capacity` slots; `sorted_keys`
        as `KeyIds`'."""
        super().__init__(sorted_keys)
        self._grow_columns = grow
        self._used = np.zeros(0, dtype=bool)
        self.key_group = np.zeros(0, dtype=np.int32)
        self._resize(INITIAL_CAPACITY)

    @property
    def entries(self) -> int:
        return len(self)

    def nbytes(self) -> int:
        """The slots' memory, estimated: the key table (`KeyIds.nbytes`) and the key group and
        in-use arrays at their capacity."""
        return super().nbytes() + self.key_group.nbytes + self._used.nbytes

    def slots(self, keys: pa.Array, key_groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's slot, created where the key has none (with the key group of the key's first
        row), and per row whether its slot was created by this call."""
        ids, new, first, rows = self._number_distinct(keys)
        created = np.zeros(len(ids), dtype=bool)
        created[new] = True
        self._used[ids[new]] = True
        self.key_group[ids[new]] = key_groups[first[new]]
        return ids[rows], created[rows]

    def free(self, slots: np.ndarray) -> None:
        """Forgets the keys of `slots` (distinct, in use); their slots go to later new keys."""
        super().free(slots)
        self._used[slots] = False

    def live_slots(self) -> np.ndarray:
        """Every slot in use, in slot order."""
        return np.flatnonzero(self._used).astype(np.int64)

    def _resize(self, capacity: int) -> None:
        extra = capacity - len(self._used)
        super()._resize(capacity)
        self.key_group = np.concatenate([self.key_group, np.zeros(extra, dtype=np.int32)])
        self._used = np.concatenate([self._used, np.zeros(extra, dtype=bool)])
        self._grow_columns(capacity)
