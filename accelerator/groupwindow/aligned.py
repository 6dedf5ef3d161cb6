"""TUMBLE and HOP rows of one `update`, assigned a batch at a time with stock's outcome row by row
(`WindowOperator.processElement` with allowed lateness 0): numpy computes each row's window or pane
and drops the late rows; the rows' (key, window) pairs are found once per batch; only each distinct
pair meets the per-key state; and the accumulators fold the rows into their slots in row order in
one call per aggregate.

The timers come out in the order the rows register them: a window's timer is registered by the first
of its rows (for HOP, the first of its (row, window) pairs, each row's windows from its last one
backwards) unless it was registered already, and a window ending before the epoch then names its
cleanup timer at 0 too (`assignment.cleanup_time`; not tracked here: Flink's timer service ignores a
registration it holds already); no timer is deleted by an update of these windows."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.groupwindow.assignment import REGISTER, TimerChanges, cleanup_time, trigger_time
from accelerator.groupwindow.state import GroupWindowState


def assign(state: GroupWindowState, keys: pa.Array, key_groups: np.ndarray, times: np.ndarray, watermark: int,
           operands: list[pa.Array]) -> TimerChanges:
    """Assigns the batch's rows (`keys`, `key_groups`, `times` in epoch ms, each aggregate's
    `operands`) at the timer service's `watermark`: folds them and registers their windows' timers."""
    window = state.spec.window
    hop = window.type == "hop"
    pane_ms = window.pane_ms if hop else window.size_ms
    panes = times - np.mod(times, pane_ms)
    # A row is late when its TUMBLE window, or its pane's last HOP window, is (cleanup time end - 1
    # at or before the watermark): then every window of it is.
    last_ends = (panes - np.mod(panes, window.slide_ms) + window.size_ms) if hop else panes + pane_ms
    live = np.flatnonzero(last_ends - 1 > watermark)
    dropped = len(times) - len(live)
    if len(live) == 0:
        return TimerChanges.none(dropped)
    encoded = pc.dictionary_encode(keys.take(pa.array(live)))
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    distinct = encoded.dictionary
    # Keys are made in the order their first live row comes (the dictionary's order).
    first_rows = np.unique(codes, return_index=True)[1]
    distinct_keys = distinct.to_pylist()
    entries = [state.key(k, g) for k, g in zip(distinct_keys, key_groups[live[first_rows]].tolist())]

    pane_of_row, pane_codes, pane_starts = first_occurrences(codes, panes[live])
    pane_slots = np.empty(len(pane_codes), dtype=np.int64)
    fresh = []
    for i, (code, start) in enumerate(zip(pane_codes.tolist(), pane_starts.tolist())):
        namespaces = entries[code].namespaces
        slot = namespaces.get((start, start + pane_ms))
        if slot is None:
            slot = state.add_namespace(entries[code], (start, start + pane_ms), reset=False)
            fresh.append(slot)
        pane_slots[i] = slot
    if fresh:
        state.reset(np.array(fresh, dtype=np.int64))
    slots = pane_slots[pane_of_row]
    at = pa.array(live)
    for column, operand in zip(state.accumulators, operands):
        column.fold(slots, operand.take(at))

    if hop:
        _, window_codes, window_starts = first_occurrences(
            *_hop_windows(codes, times[live], window.size_ms, window.slide_ms, watermark))
    else:
        window_codes, window_starts = pane_codes, pane_starts  # a TUMBLE window is its one pane
    size = window.size_ms
    changed_codes, changed_starts, timer_times = [], [], []
    for code, start in zip(window_codes.tolist(), window_starts.tolist()):
        w = (start, start + size)
        if state.register(distinct_keys[code], entries[code], w):
            changed_codes.append(code)
            changed_starts.append(start)
            timer_times.append(trigger_time(w))
        if cleanup_time(w) != trigger_time(w):
            changed_codes.append(code)
            changed_starts.append(start)
            timer_times.append(cleanup_time(w))
    starts = np.array(changed_starts, dtype=np.int64)
    return TimerChanges(distinct.take(pa.array(changed_codes, pa.int64())),
                        np.full(len(starts), REGISTER, dtype=np.int8), starts, starts + size,
                        np.array(timer_times, dtype=np.int64), dropped)


def _hop_windows(codes: np.ndarray, times: np.ndarray, size: int, slide: int, watermark: int):
    """Each row's HOP windows that are not late, as (key code, window start) in the order rows
    register them (`SlidingWindowAssigner.assignWindows`: from the last window containing the row
    backwards)."""
    count = -(-size // slide)
    last = times - np.mod(times, slide)
    starts = last[:, None] - slide * np.arange(count, dtype=np.int64)[None, :]
    keep = (starts > (times - size)[:, None]) & (starts + size - 1 > watermark)
    return np.broadcast_to(codes[:, None], starts.shape)[keep], starts[keep]


def first_occurrences(codes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (code, value) pairs in the order they first occur: each row's pair number, and
    the pairs' codes and values."""
    order = np.lexsort((values, codes))  # stable: within a pair, rows stay in order
    c, v = codes[order], values[order]
    starts = np.empty(len(order), dtype=bool)
    starts[:1] = True
    starts[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1])
    sorted_pair = np.cumsum(starts) - 1
    by_first = np.argsort(order[starts], kind="stable")
    number = np.empty(len(by_first), dtype=np.int64)
    number[by_first] = np.arange(len(by_first))
    pair_of_row = np.empty(len(order), dtype=np.int64)
    pair_of_row[order] = number[sorted_pair]
    return pair_of_row, c[starts][by_first], v[starts][by_first]
