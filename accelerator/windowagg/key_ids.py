"""The distinct keys a window state holds, each numbered once, so that its slots are found by
integer key id (`slot_index`) rather than by bytes.

A batch's keys are deduplicated by Arrow (`dictionary_encode`) and only its distinct keys meet the
table, through C-level iteration (`map` over the dict's methods): Nexmark q5 brings hundreds of
distinct auctions per batch of a thousand bids. A key's number is freed when the state drops its
last slot and is reused by a later key."""

from __future__ import annotations

import sys
from collections import deque

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: A bytes object's header beside its data, and the table's entry for it.
_BYTES_HEADER = sys.getsizeof(b"")
_ENTRY_BYTES = 100


class KeyIds:
    def __init__(self):
        self._id_of: dict[bytes, int] = {}
        self._keys = np.empty(0, dtype=object)
        self._free: list[int] = []
        self._numbered = 0
        self._key_bytes = 0

    def __len__(self) -> int:
        return len(self._id_of)

    def nbytes(self) -> int:
        """Each held key's bytes and table entry, and the id-to-key array at its capacity."""
        return self._keys.nbytes + sys.getsizeof(self._id_of) + self._key_bytes + len(self._id_of) * _ENTRY_BYTES

    def ids(self, keys: pa.Array) -> np.ndarray:
        """Each key's id, numbered afresh for keys not held, in first-occurrence order."""
        if keys.null_count:
            raise ValueError("a $key is NULL; every row carries its key's bytes")
        encoded = pc.dictionary_encode(keys)
        distinct = encoded.dictionary.to_pylist()
        ids = np.fromiter(map(self._id_of.get, distinct, [-1] * len(distinct)), dtype=np.int64, count=len(distinct))
        new = np.flatnonzero(ids < 0)
        if len(new):
            ids[new] = self._number([distinct[i] for i in new.tolist()])
        return ids[encoded.indices.to_numpy(zero_copy_only=False)]

    def find(self, keys: pa.Array) -> np.ndarray:
        """Each key's id, -1 for a key not held."""
        encoded = pc.dictionary_encode(keys)
        distinct = encoded.dictionary.to_pylist()
        ids = np.fromiter(map(self._id_of.get, distinct, [-1] * len(distinct)), dtype=np.int64, count=len(distinct))
        return ids[encoded.indices.to_numpy(zero_copy_only=False)]

    def _number(self, keys: list[bytes]) -> np.ndarray:
        """Ids for new keys: freed ones first, most recently freed first, then fresh ones."""
        reused = min(len(keys), len(self._free))
        numbers = self._free[len(self._free) - reused:][::-1]
        del self._free[len(self._free) - reused:]
        fresh = len(keys) - reused
        numbers += range(self._numbered, self._numbered + fresh)
        self._numbered += fresh
        if len(self._keys) < self._numbered:
            grown = np.empty(max(2 * len(self._keys), self._numbered, 64), dtype=object)
            grown[:len(self._keys)] = self._keys
            self._keys = grown
        ids = np.array(numbers, dtype=np.int64)
        held = np.empty(len(keys), dtype=object)
        held[:] = keys
        self._keys[ids] = held
        self._id_of.update(zip(keys, numbers))
        self._key_bytes += sum(map(len, keys)) + _BYTES_HEADER * len(keys)
        return ids

    def free(self, ids: np.ndarray) -> None:
        """Forgets the keys of distinct held `ids`."""
        keys = self._keys[ids]
        deque(map(self._id_of.pop, keys), maxlen=0)
        self._key_bytes -= sum(map(len, keys)) + _BYTES_HEADER * len(ids)
        self._keys[ids] = None
        self._free.extend(ids.tolist())

    def keys(self, ids: np.ndarray) -> pa.Array:
        return pa.array(self._keys[ids], pa.binary())
