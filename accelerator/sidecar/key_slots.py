"""The keys a stateful stage holds state for: one slot per key (its bytes and key group), made in
the order keys first appear. A slot lives until the stage frees it (a group aggregate whose key's
rows were all retracted); a freed slot is reused by a later key. Each stage keeps its own per-slot
columns beside it, grown with `grow`."""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_INITIAL_CAPACITY = 64
#: A dict entry and the bytes object header, besides the key's own bytes.
_ENTRY_OBJECT_BYTES = 100


class KeySlots:
    def __init__(self, grow: Callable[[int], None]):
        """`grow(capacity)` makes the stage's per-slot columns hold `capacity` slots."""
        self._slot_of: dict[bytes, int] = {}
        self._keys: list[bytes | None] = []
        self._entry_bytes = 0
        self._grow_columns = grow
        self._free: list[int] = []
        self._used = np.zeros(0, dtype=bool)
        self.key_group = np.zeros(0, dtype=np.int32)
        self._grow(_INITIAL_CAPACITY)

    @property
    def entries(self) -> int:
        return len(self._slot_of)

    def nbytes(self) -> int:
        """The slots' memory, estimated: the key group array at its capacity, the table from key to
        slot, and each key's bytes and table entry."""
        return self.key_group.nbytes + self._used.nbytes + sys.getsizeof(self._slot_of) + sys.getsizeof(self._keys) + self._entry_bytes

    def slots(self, keys: pa.Array, key_groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's slot, created where the key has none, and per row whether its slot was
        created by this call."""
        n = len(keys)
        if n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
        if keys.null_count:
            raise ValueError("a $key is NULL; every row carries its key's bytes")
        encoded = pc.dictionary_encode(keys)
        key_ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        # dictionary_encode numbers the keys in first-occurrence order, so slots are made in that order.
        _, first = np.unique(key_ids, return_index=True)
        key_list = encoded.dictionary.to_pylist()
        key_slots = np.empty(len(key_list), dtype=np.int64)
        created = np.zeros(len(key_list), dtype=bool)
        for key_id, row in enumerate(first.tolist()):
            key = key_list[key_id]
            slot = self._slot_of.get(key)
            if slot is None:
                slot = self._create(key, int(key_groups[row]))
                created[key_id] = True
            key_slots[key_id] = slot
        return key_slots[key_ids], created[key_ids]

    def _create(self, key: bytes, key_group: int) -> int:
        if self._free:
            slot = self._free.pop()
        else:
            if len(self._slot_of) == len(self._keys):
                self._grow(2 * len(self._keys))
            slot = len(self._slot_of)
        self._slot_of[key] = slot
        self._used[slot] = True
        self._keys[slot] = key
        self._entry_bytes += sys.getsizeof(key) + _ENTRY_OBJECT_BYTES
        self.key_group[slot] = key_group
        return slot

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self._keys)
        self._keys.extend([None] * extra)
        self.key_group = np.concatenate([self.key_group, np.zeros(extra, dtype=np.int32)])
        self._used = np.concatenate([self._used, np.zeros(extra, dtype=bool)])
        self._grow_columns(capacity)

    def free(self, slots: np.ndarray) -> None:
        """Forgets the keys of `slots` (distinct, in use); their slots go to later new keys."""
        for slot in slots.tolist():
            key = self._keys[slot]
            del self._slot_of[key]
            self._keys[slot] = None
            self._entry_bytes -= sys.getsizeof(key) + _ENTRY_OBJECT_BYTES
            self._used[slot] = False
            self._free.append(slot)

    def holds(self, key: bytes) -> bool:
        return key in self._slot_of

    def live_slots(self) -> np.ndarray:
        """Every slot in use, in slot order."""
        return np.flatnonzero(self._used).astype(np.int64)

    def keys(self, slots: np.ndarray) -> pa.Array:
        return pa.array([self._keys[s] for s in slots.tolist()], pa.binary())
