"""The panes of many fired HOP windows at once: which slots hold each window's panes, in pane
order, found with numpy over the state's per-slot key and start (`GroupWindowState.slot_key`,
`slot_start`) instead of one dictionary lookup per (window, pane)."""

from __future__ import annotations

import numpy as np


def window_panes(slot_key: np.ndarray, slot_start: np.ndarray, keys: np.ndarray, starts: np.ndarray,
                 size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For windows `i` of key code `keys[i]` over [`starts[i]`, `starts[i]` + `size`): every
    (window, pane) pair of a pane the state holds, as the window's index, the pane's slot and its
    rank among the window's panes (0 for its earliest), grouped by window, each window's panes in
    order of their start. A pane is a namespace of the window's key that starts inside it."""
    n = len(keys)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        return empty, empty, empty
    ends = starts + size
    held = np.flatnonzero((slot_key >= 0) & (slot_start >= starts.min()) & (slot_start < ends.max()))
    if len(held) == 0:
        return empty, empty, empty
    held = held[np.lexsort((slot_start[held], slot_key[held]))]
    held_keys, held_starts = slot_key[held], slot_start[held]
    # (key code, start) as one sortable number: the starts by their rank among all the starts involved.
    ranks = np.unique(np.concatenate([held_starts, starts, ends]), return_inverse=True)[1].reshape(-1)
    span = int(ranks.max()) + 1
    held_at = held_keys * span + ranks[:len(held)]
    lo = np.searchsorted(held_at, keys * span + ranks[len(held):len(held) + n], side="left")
    hi = np.searchsorted(held_at, keys * span + ranks[len(held) + n:], side="left")
    counts = hi - lo
    total = int(counts.sum())
    windows = np.repeat(np.arange(n, dtype=np.int64), counts)
    rank = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return windows, held[np.repeat(lo, counts) + rank], rank
