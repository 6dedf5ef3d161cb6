"""Which state slot holds each (key id, window end) pair, looked up and changed a whole array at a
time: a window aggregate touches thousands of pairs per batch and per fired window end (Nexmark
q5's HOP count per auction), which a Python dict of (key, end) tuples costs one interpreted step
each.

Window ends are numbered (a few are live at once: the slices and timers not yet fired) and each
pair becomes one int64 code, end number in the high 32 bits and key id in the low 32; the codes
are held sorted beside their slots, so a lookup is one `searchsorted`. An end's number is freed
with its last pair and reused by a later end."""

from __future__ import annotations

import sys

import numpy as np

_KEY_BITS = 32
#: A live end's dict entry: the end's int object and the table's share of it.
_END_ENTRY_BYTES = 100


class SlotIndex:
    def __init__(self):
        self._end_number: dict[int, int] = {}
        self._end_pairs: list[int] = []
        self._free_numbers: list[int] = []
        self._codes = np.zeros(0, dtype=np.int64)
        self._slots = np.zeros(0, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._codes)

    def nbytes(self) -> int:
        return (self._codes.nbytes + self._slots.nbytes + sys.getsizeof(self._end_number)
                + len(self._end_number) * _END_ENTRY_BYTES)

    def find(self, key_ids: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The slot of each (key id, end), -1 where none."""
        values, inverse = np.unique(ends, return_inverse=True)
        numbers = np.array([self._end_number.get(e, -1) for e in values.tolist()], dtype=np.int64)
        return self._lookup(key_ids, numbers[inverse.reshape(-1)])

    def find_at(self, key_ids: np.ndarray, end: int) -> np.ndarray:
        """The slot of each (key id, `end`), -1 where none."""
        return self._lookup(key_ids, np.full(len(key_ids), self._end_number.get(end, -1), dtype=np.int64))

    def _lookup(self, key_ids: np.ndarray, numbers: np.ndarray) -> np.ndarray:
        if not len(self._codes):
            return np.full(len(key_ids), -1, dtype=np.int64)
        codes = (numbers << _KEY_BITS) | key_ids
        at = np.minimum(np.searchsorted(self._codes, codes), len(self._codes) - 1)
        hit = (self._codes[at] == codes) & (numbers >= 0)
        return np.where(hit, self._slots[at], -1)

    def add(self, key_ids: np.ndarray, ends: np.ndarray, slots: np.ndarray) -> None:
        """Records distinct pairs that have no slot yet as held by `slots`."""
        values, inverse, counts = np.unique(ends, return_inverse=True, return_counts=True)
        numbers = np.empty(len(values), dtype=np.int64)
        for i, (end, count) in enumerate(zip(values.tolist(), counts.tolist())):
            number = self._end_number.get(end)
            if number is None:
                number = self._free_numbers.pop() if self._free_numbers else len(self._end_pairs)
                if number == len(self._end_pairs):
                    self._end_pairs.append(0)
                self._end_number[end] = number
            self._end_pairs[number] += count
            numbers[i] = number
        codes = (numbers[inverse.reshape(-1)] << _KEY_BITS) | key_ids
        order = np.argsort(codes)
        codes = codes[order]
        at = np.searchsorted(self._codes, codes)
        self._codes = np.insert(self._codes, at, codes)
        self._slots = np.insert(self._slots, at, slots[order])

    def remove(self, key_ids: np.ndarray, ends: np.ndarray) -> None:
        """Forgets distinct held pairs."""
        values, inverse, counts = np.unique(ends, return_inverse=True, return_counts=True)
        numbers = np.array([self._end_number[e] for e in values.tolist()], dtype=np.int64)
        codes = (numbers[inverse.reshape(-1)] << _KEY_BITS) | key_ids
        kept = np.ones(len(self._codes), dtype=bool)
        kept[np.searchsorted(self._codes, codes)] = False
        self._codes, self._slots = self._codes[kept], self._slots[kept]
        for end, number, count in zip(values.tolist(), numbers.tolist(), counts.tolist()):
            self._end_pairs[number] -= count
            if self._end_pairs[number] == 0:
                del self._end_number[end]
                self._free_numbers.append(number)
