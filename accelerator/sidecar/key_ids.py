"""The distinct keys a stateful stage holds, each numbered once, so that its state is found by
integer key id rather than by bytes. Every stage numbers keys this way: the window aggregate
directly, the group aggregate, deduplication, Top-N and the join through `KeySlots`.

A batch's keys are deduplicated by Arrow (`dictionary_encode`), and only its distinct keys meet
the table, so no Python code runs per key or per row; only keys not held yet are numbered. While
every key held has one width (a key of fixed-size fields: a BinaryRowData of one BIGINT is 16
bytes), they are found by binary search over their bytes sorted in numpy (`_SortedKeys`), with no
Python object per key; otherwise through C-level iteration (`map`) over the table's dict, which
always holds every key. A key's number is freed by the stage and reused by a later key.

The numbering is part of the state's contract (snapshots list keys in slot order within a key
group, restore numbers them in their snapshot order, and some stages emit in slot order), so it is
exactly the one a key-at-a-time table gives: new keys are numbered in the order they first appear
in the batch, each taking the most recently freed number left, then the next fresh one."""

from __future__ import annotations

import sys
from collections import deque

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: A bytes object's header beside its data, a number's object in the free list, and the table's
#: entry for a key (its dict slot and hash).
_BYTES_HEADER = sys.getsizeof(b"")
_INT_BYTES = sys.getsizeof(1 << 40)
_ENTRY_BYTES = 100
#: The ids a table makes room for first; it doubles from there.
INITIAL_CAPACITY = 64
#: The widest keys held a second time in `_SortedKeys`.
_MAX_SORTED_WIDTH = 32


class KeyIds:
    def __init__(self, sorted_keys: bool = True):
        """`sorted_keys` False keeps no `_SortedKeys`: for a table that numbers new keys in most
        batches (a DISTINCT aggregate's values), where inserting them into the sorted copy costs a
        pass over all of it each time while the dict takes them at the batch's cost."""
        self._sorting = sorted_keys
        self._id_of: dict[bytes, int] = {}
        self._keys = np.empty(0, dtype=object)
        self._free: list[int] = []
        self._numbered = 0
        self._key_bytes = 0
        self._sorted: _SortedKeys | None = None

    def __len__(self) -> int:
        return len(self._id_of)

    def nbytes(self) -> int:
        """Each held key's bytes and table entry, the id-to-key array at its capacity, the freed
        numbers waiting for reuse and the sorted copy of the keys (`_SortedKeys`)."""
        return (self._keys.nbytes + sys.getsizeof(self._id_of) + self._key_bytes + len(self._id_of) * _ENTRY_BYTES
                + sys.getsizeof(self._free) + len(self._free) * _INT_BYTES
                + (self._sorted.nbytes() if self._sorted is not None else 0))

    def holds(self, key: bytes) -> bool:
        return key in self._id_of

    def ids(self, keys: pa.Array) -> np.ndarray:
        """Each key's id, numbered afresh for keys not held, in first-occurrence order."""
        ids, _, _, rows = self._number_distinct(keys)
        return ids[rows]

    def find(self, keys: pa.Array) -> np.ndarray:
        """Each key's id, -1 for a key not held."""
        encoded = pc.dictionary_encode(keys)
        return self._held_ids(encoded.dictionary)[encoded.indices.to_numpy(zero_copy_only=False)]

    def keys(self, ids: np.ndarray) -> pa.Array:
        return pa.array(self._keys[ids], pa.binary())

    def free(self, ids: np.ndarray) -> None:
        """Forgets the keys of distinct held `ids`; their numbers go to later new keys, the last
        freed first."""
        keys = self._keys[ids]
        deque(map(self._id_of.pop, keys), maxlen=0)
        if self._sorted is not None:
            self._sorted.remove(keys)
        self._key_bytes -= sum(map(len, keys)) + _BYTES_HEADER * len(ids)
        self._keys[ids] = None
        self._free.extend(ids.tolist())

    def _number_distinct(self, keys: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The batch's distinct keys: each one's id (numbered now if it was not held), the distinct
        keys numbered now (in the order they first appear), each one's first row (only when some key
        is new, as only new keys need it; empty otherwise); and each row's distinct key."""
        if keys.null_count:
            raise ValueError("a $key is NULL; every row carries its key's bytes")
        encoded = pc.dictionary_encode(keys)
        rows = encoded.indices.to_numpy(zero_copy_only=False)
        ids = self._held_ids(encoded.dictionary)
        new = np.flatnonzero(ids < 0)
        first = np.zeros(0, dtype=np.int64)
        if len(new):
            first = _first_rows(rows, len(ids))
            new = new[np.argsort(first[new], kind="stable")]
            ids[new] = self._number(encoded.dictionary.take(pa.array(new)).to_pylist())
        return ids, new, first, rows

    def _held_ids(self, distinct: pa.Array) -> np.ndarray:
        """Each distinct key's id, -1 for a key not held."""
        codes = self._sorted.codes(distinct) if self._sorted is not None else None
        if codes is not None:
            return self._sorted.find(codes)
        keys = distinct.to_pylist()
        return np.fromiter(map(self._id_of.get, keys, [-1] * len(keys)), dtype=np.int64, count=len(keys))

    def _number(self, keys: list[bytes]) -> np.ndarray:
        """Ids for new keys, in order: freed ones first, most recently freed first, then fresh ones."""
        reused = min(len(keys), len(self._free))
        numbers = self._free[len(self._free) - reused:][::-1]
        del self._free[len(self._free) - reused:]
        fresh = len(keys) - reused
        numbers += range(self._numbered, self._numbered + fresh)
        self._numbered += fresh
        if len(self._keys) < self._numbered:
            capacity = max(len(self._keys), INITIAL_CAPACITY)
            while capacity < self._numbered:
                capacity *= 2
            self._resize(capacity)
        ids = np.array(numbers, dtype=np.int64)
        held = np.empty(len(keys), dtype=object)
        held[:] = keys
        self._keys[ids] = held
        self._id_of.update(zip(keys, numbers))
        self._key_bytes += sum(map(len, keys)) + _BYTES_HEADER * len(keys)
        self._sort(keys, ids)
        return ids

    def _sort(self, keys: list[bytes], ids: np.ndarray) -> None:
        """Adds new keys to `_SortedKeys`: begun with the table's first keys if they share a width
        of at most `_MAX_SORTED_WIDTH`, given up for good once keys of two widths are held."""
        widths = set(map(len, keys))
        if self._sorted is None and self._numbered == len(keys) and self._sorting:
            if len(widths) == 1 and 0 < min(widths) <= _MAX_SORTED_WIDTH:
                self._sorted = _SortedKeys(min(widths))
        if self._sorted is not None:
            if widths == {self._sorted.width}:
                self._sorted.add(keys, ids)
            else:
                self._sorted = None

    def _resize(self, capacity: int) -> None:
        """Makes room for ids below `capacity` (a subclass grows its own per-id columns here)."""
        grown = np.empty(capacity, dtype=object)
        grown[:len(self._keys)] = self._keys
        self._keys = grown


class _SortedKeys:
    """The held keys of one width as numpy byte strings of that width, sorted, beside their ids:
    keys of that width are found by binary search and compared whole, so a key is found exactly
    when the table holds its bytes."""

    def __init__(self, width: int):
        self.width = width
        self._dtype = np.dtype(f"V{width}")
        self._codes = np.empty(0, dtype=self._dtype)
        self._ids = np.empty(0, dtype=np.int64)

    def nbytes(self) -> int:
        return self._codes.nbytes + self._ids.nbytes

    def codes(self, keys: pa.Array) -> np.ndarray | None:
        """`keys` (distinct, not NULL) as byte strings of this width; None if any has another."""
        if keys.type != pa.binary():
            return None
        if len(keys) == 0:
            return np.empty(0, dtype=self._dtype)
        offsets = np.frombuffer(keys.buffers()[1], dtype=np.int32, count=len(keys) + 1, offset=4 * keys.offset)
        if (np.diff(offsets) != self.width).any():
            return None
        data = np.frombuffer(keys.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
        return data.view(self._dtype)

    def find(self, codes: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(self._codes, codes), max(len(self._codes) - 1, 0))
        ids = np.full(len(codes), -1, dtype=np.int64)
        if len(self._codes):
            hit = self._codes[at] == codes
            ids[hit] = self._ids[at[hit]]
        return ids

    def add(self, keys: list[bytes], ids: np.ndarray) -> None:
        codes = self._of(keys)
        order = np.argsort(codes, kind="stable")
        at = np.searchsorted(self._codes, codes[order])
        self._codes = np.insert(self._codes, at, codes[order])
        self._ids = np.insert(self._ids, at, ids[order])

    def remove(self, keys: np.ndarray) -> None:
        at = np.searchsorted(self._codes, self._of(keys))
        self._codes, self._ids = np.delete(self._codes, at), np.delete(self._ids, at)

    def _of(self, keys) -> np.ndarray:
        return np.frombuffer(b"".join(keys), dtype=np.uint8).view(self._dtype)


def _first_rows(rows: np.ndarray, distinct: int) -> np.ndarray:
    """The row where each distinct key first appears. Arrow numbers a dictionary's values in the
    order they first appear, so those rows are where the running maximum of `rows` rises; should a
    dictionary ever come in another order, fewer rows rise and the rows are found by sorting."""
    if len(rows) == 0:
        return np.zeros(0, dtype=np.int64)
    peak = np.maximum.accumulate(rows)
    rises = np.flatnonzero(np.concatenate([[True], peak[1:] > peak[:-1]]))
    if len(rises) == distinct:
        return rises
    return np.unique(rows, return_index=True)[1]
