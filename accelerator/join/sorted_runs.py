"""Integer keys with a value each (a held row's place), sorted by key, for lookups of a batch's keys
at once, in two runs so that adding a batch's entries does not rewrite the whole index: a batch's
entries go into the small recent run, which is merged into the main one only when it reaches a
sixteenth of it (each entry is then copied a bounded number of times, not once per batch).
And `appended`: a numpy array grown in place into spare capacity, for per-row arrays that grow
by a batch at a time."""

from __future__ import annotations

import numpy as np

#: The recent run is merged into the main one when it holds more than main / MERGE_SHARE entries
#: (and more than MIN_RECENT).
MERGE_SHARE = 16
MIN_RECENT = 4096


class SortedRuns:
    """Entries (key, value), each run sorted by key, equal keys in the order they were added."""

    def __init__(self, key_dtype):
        self._dtype = np.dtype(key_dtype)
        self.runs = [(np.zeros(0, self._dtype), np.zeros(0, np.int64)), (np.zeros(0, self._dtype), np.zeros(0, np.int64))]

    @property
    def nbytes(self) -> int:
        return sum(k.nbytes + v.nbytes for k, v in self.runs)

    def __len__(self) -> int:
        return sum(len(k) for k, _ in self.runs)

    def insert(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Adds entries (after the ones held with the same key)."""
        if len(keys) == 0:
            return
        keys, values = np.asarray(keys, self._dtype), np.asarray(values, np.int64)
        by_key = np.argsort(keys, kind="stable")
        keys, values = keys[by_key], values[by_key]
        (main_keys, main_values), (recent_keys, recent_values) = self.runs
        at = np.searchsorted(recent_keys, keys, side="right")
        recent_keys, recent_values = np.insert(recent_keys, at, keys), np.insert(recent_values, at, values)
        if len(recent_keys) > max(len(main_keys) // MERGE_SHARE, MIN_RECENT):
            at = np.searchsorted(main_keys, recent_keys, side="right")
            self.runs = [(np.insert(main_keys, at, recent_keys), np.insert(main_values, at, recent_values)),
                         (np.zeros(0, self._dtype), np.zeros(0, np.int64))]
        else:
            self.runs = [(main_keys, main_values), (recent_keys, recent_values)]

    def ranges(self, keys: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per run: where each of `keys`'s entries start and end in it (`lo`, `hi`), and its values.

        The keys are searched in sorted order (each search starts near the last one's answer, and
        reads the run's memory in order), and only the keys the run holds are searched a second
        time for where their entries end: in a batch of new rows, most keys are not held."""
        keys = np.asarray(keys, self._dtype)
        by_key = np.argsort(keys)
        sorted_keys = keys[by_key]
        out = []
        for k, v in self.runs:
            lo = np.empty(len(keys), dtype=np.int64)
            lo[by_key] = np.searchsorted(k, sorted_keys, side="left")
            held = np.flatnonzero(k[np.minimum(lo, len(k) - 1)] == keys) if len(k) else lo[:0]
            hi = lo.copy()
            hi[held] = np.searchsorted(k, keys[held], side="right")
            out.append((lo, hi, v))
        return out


def appended(array: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`array` followed by `values`: written into the spare capacity of the buffer `array` is the
    start of when it has room (so earlier views of it stay as they were), else into a new buffer
    of twice the length. The answer is a view of that buffer."""
    n, m = len(array), len(values)
    if m == 0:
        return array
    base = array.base
    if isinstance(base, np.ndarray) and base.ndim == 1 and base.dtype == array.dtype and len(base) >= n + m \
            and array.ctypes.data == base.ctypes.data and array.strides == base.strides:
        out = base[:n + m]
    else:
        buffer = np.empty(max(n + m, 2 * n, 64), dtype=array.dtype)
        buffer[:n] = array
        out = buffer[:n + m]
    out[n:] = values
    return out
