"""SESSION rows of one `update`, assigned a batch at a time where stock's outcome follows from the
key's latest session alone, and row by row (`sessions.SessionAssigner`) from the first row of a
key where it does not.

A row whose time is after the start of its key's latest session in flight merges with that session
only (it is the floor, there is no ceiling): it starts a new session after it (time > its end),
extends it (registers the longer session's timer, then deletes the old one's) or falls into it.
Within a key those outcomes are a running maximum of `time + gap` over its rows, so numpy finds
them for every key at once, as long as each row comes after its key's latest session's start; a
key's rows from the first that does not (a row inside or before an older session, which may merge
two sessions) go row by row after the others, and every change is put back in row order. Rows late
for the watermark start no session and are dropped; a late row inside a session in flight falls
into it, as in stock."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.groupwindow.assignment import DELETE, REGISTER, NegativeWindow, TimerChanges
from accelerator.groupwindow.sessions import Folds, SessionAssigner
from accelerator.groupwindow.state import GroupWindowState

#: Times beyond which `time + gap` could overflow a long: such batches go row by row.
_TIME_LIMIT = 1 << 61


def assign(state: GroupWindowState, keys: pa.Array, key_groups: np.ndarray, times: np.ndarray, watermark: int,
           operands: list[pa.Array]) -> TimerChanges:
    """Assigns the batch's rows (`keys`, `key_groups`, `times` in epoch ms, each aggregate's
    `operands`) at the timer service's `watermark`: folds them, merges sessions, and answers the
    timer changes in stock's order."""
    n = len(times)
    if n == 0:
        return TimerChanges.none(0)
    gap = state.spec.window.gap_ms
    encoded = pc.dictionary_encode(keys)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    distinct = encoded.dictionary.to_pylist()
    latest = _latest_sessions(state, distinct, watermark)
    order = np.argsort(codes, kind="stable")  # rows by key, in row order within a key
    c, t = codes[order], times[order]
    if t.max() >= _TIME_LIMIT or t.min() <= -_TIME_LIMIT or gap >= _TIME_LIMIT:
        run = _Run.none(n)
    else:
        run = _Run.of(c, t, gap, watermark, latest)
    fast = ~run.slow
    registering = fast & (run.starts | run.extends)
    negative = registering & (t + gap - 1 < 0)
    if negative.any():
        first = np.flatnonzero(negative)[np.argmin(order[negative])]
        start = t[first] if run.starts[first] else run.session_start[first]
        raise NegativeWindow((int(start), int(t[first] + gap)))

    fresh, slots = _apply_runs(state, distinct, key_groups, order, c, t, latest, run)
    if fresh:
        state.reset(np.array(fresh, dtype=np.int64))
    held = fast & ~run.dropped
    at = pa.array(order[held])
    for column, operand in zip(state.accumulators, operands):
        column.fold(slots, operand.take(at))

    slow_rows = np.sort(order[run.slow])
    folds = Folds(state, operands)
    assigner = SessionAssigner(state, folds, watermark)
    if len(slow_rows):
        slow_keys = keys.take(pa.array(slow_rows)).to_pylist()
        assigner.assign(slow_rows.tolist(), slow_keys, key_groups[slow_rows].tolist(), times[slow_rows].tolist())
    folds.apply()
    return _changes(encoded.dictionary, distinct, order, c, t, gap, run, assigner,
                    int(np.count_nonzero(fast & run.dropped)) + assigner.dropped)


class _Run:
    """Per row in key order: whether it goes row by row (`slow`, its key's rows from the first
    that needs it), and for the others whether it is dropped as late, starts a session, extends
    its key's current session (else falls into it), the current session's start and end before
    the row, and its end after it."""

    def __init__(self, slow, dropped, starts, extends, session_start, end_before, end_after, last_start):
        self.slow, self.dropped, self.starts, self.extends = slow, dropped, starts, extends
        self.session_start, self.end_before, self.end_after = session_start, end_before, end_after
        #: Per row, the position (in key order) of the latest session start at or before it, -1
        #: when its session is the key's latest from before the batch.
        self.last_start = last_start

    @classmethod
    def none(cls, n: int) -> "_Run":
        no = np.zeros(n, dtype=bool)
        zeros = np.zeros(n, dtype=np.int64)
        return cls(np.ones(n, dtype=bool), no, no, no, zeros, zeros, zeros, zeros - 1)

    @classmethod
    def of(cls, c: np.ndarray, t: np.ndarray, gap: int, watermark: int, latest: "_Latest") -> "_Run":
        n = len(c)
        position = np.arange(n)
        first = np.flatnonzero(np.concatenate([[True], c[1:] != c[:-1]]))
        key_first = np.zeros(int(c[-1]) + 1, dtype=np.int64)
        key_first[c[first]] = first
        at_first = np.zeros(n, dtype=bool)
        at_first[first] = True
        late = t + gap - 1 <= watermark
        reach = t + gap
        real = reach[~late]
        if latest.has.any():
            real = np.concatenate([real, latest.end[latest.has]])
        none = (int(real.min()) - 1) if len(real) else 0
        initial = np.where(latest.has, latest.end, none)
        end_after = _running_max(np.where(late, none, reach), c, at_first, initial)
        if end_after is None:
            return cls.none(n)
        end_before = np.where(at_first, initial[c], np.concatenate([[none], end_after[:-1]]))
        no_session = end_before == none
        starts = ~late & (no_session | (t > end_before))
        dropped = late & no_session
        last_start = np.maximum.accumulate(np.where(starts, position, -1))
        start_before = np.where(at_first, -1, np.concatenate([[-1], last_start[:-1]]))
        own = start_before >= key_first[c]
        session_start = np.where(own, t[np.maximum(start_before, 0)], latest.start[c])
        valid = no_session | (t > session_start)
        invalid = ~valid | latest.ineligible[c]
        slow = np.maximum.accumulate(np.where(invalid, c, -1)) == c
        extends = ~slow & ~starts & ~dropped & (reach > end_before)
        last_start = np.where(last_start >= key_first[c], last_start, -1)
        return cls(slow, dropped, starts, extends, session_start, end_before, end_after, last_start)


def _running_max(values: np.ndarray, c: np.ndarray, at_first: np.ndarray, initial: np.ndarray) -> np.ndarray | None:
    """Per row (rows grouped by key `c`, ascending), the greatest of its key's `initial` and its
    key's `values` up to it; None if the keys' value ranges cannot be stacked in a long."""
    base = min(int(values.min()), int(initial.min()))
    span = max(int(values.max()), int(initial.max())) - base + 1
    if span * (int(c[-1]) + 2) >= 1 << 62:
        return None
    offset = c * span - base
    stacked = values + offset
    stacked[at_first] = np.maximum(stacked[at_first], initial[c[at_first]] + offset[at_first])
    return np.maximum.accumulate(stacked) - offset


class _Latest:
    """Per distinct key of the batch: its latest session in flight (`has`, `start`, `end`), and
    whether its rows must go row by row from the first (`ineligible`: its timers are not exactly
    its sessions', or its latest session is late, which the batch assignment does not model)."""

    def __init__(self, d: int):
        self.has = np.zeros(d, dtype=bool)
        self.start = np.zeros(d, dtype=np.int64)
        self.end = np.zeros(d, dtype=np.int64)
        self.ineligible = np.zeros(d, dtype=bool)


def _latest_sessions(state: GroupWindowState, distinct: list[bytes], watermark: int) -> _Latest:
    latest = _Latest(len(distinct))
    held = state.keys
    for i, key in enumerate(distinct):
        entry = held.get(key)
        if entry is None or not entry.namespaces:
            if entry is not None and entry.timers:
                latest.ineligible[i] = True
            continue
        last = max(entry.namespaces)
        latest.has[i] = True
        latest.start[i], latest.end[i] = last
        if last[1] - 1 <= watermark or entry.namespaces.keys() != entry.timers:
            latest.ineligible[i] = True
    return latest


def _apply_runs(state: GroupWindowState, distinct: list[bytes], key_groups: np.ndarray, order: np.ndarray,
                c: np.ndarray, t: np.ndarray, latest: _Latest, run: _Run) -> tuple[list[int], np.ndarray]:
    """Puts the batch-assigned rows' sessions into the state (keys made in the order of their first
    held row, as row by row; each session with its end after its last row, and the timers of the
    sessions it replaced deleted) and answers the slots made (to be reset) and each held row's slot."""
    held = ~run.slow & ~run.dropped
    positions = np.flatnonzero(held)
    if len(positions) == 0:
        return [], np.zeros(0, dtype=np.int64)
    # A session: the latest from before the batch (-1 - key) or the row that starts it.
    session = np.where(run.last_start[positions] >= 0, run.last_start[positions], -1 - c[positions])
    last = np.flatnonzero(np.concatenate([session[1:] != session[:-1], [True]]))
    firsts = np.concatenate([[0], last[:-1] + 1])

    held_codes, first = np.unique(c[positions], return_index=True)
    first_rows = order[positions[first]]
    new = [i for i, k in enumerate(held_codes.tolist()) if distinct[k] not in state.keys]
    for i in sorted(new, key=lambda i: first_rows[i]):
        k = int(held_codes[i])
        state.key(distinct[k], int(key_groups[first_rows[i]]))

    ends = positions[last]
    run_codes = c[ends]
    opened = session[last]
    run_starts = np.where(opened >= 0, t[np.maximum(opened, 0)], latest.start[run_codes])
    fresh, run_slots = [], []
    for code, opens, start, end in zip(run_codes.tolist(), (opened >= 0).tolist(), run_starts.tolist(),
                                       run.end_after[ends].tolist()):
        key = distinct[code]
        entry = state.keys[key]
        if opens:
            slot = state.add_namespace(entry, (start, end), reset=False)
            fresh.append(slot)
            state.register(key, entry, (start, end))
        else:
            previous = (start, int(latest.end[code]))
            slot = entry.namespaces[previous]
            if end > previous[1]:
                del entry.namespaces[previous]
                entry.namespaces[(start, end)] = slot
                state.delete(entry, previous)
                state.register(key, entry, (start, end))
        run_slots.append(slot)
    lengths = last - firsts + 1
    return fresh, np.repeat(np.array(run_slots, dtype=np.int64), lengths)


def _changes(dictionary: pa.Array, distinct: list[bytes], order: np.ndarray, c: np.ndarray, t: np.ndarray, gap: int,
             run: _Run, assigner: SessionAssigner, dropped: int) -> TimerChanges:
    """The timer changes of both parts in row order (within a row in the order it made them)."""
    fast = ~run.slow
    starts, extends = fast & run.starts, fast & run.extends
    rows = [order[starts], order[extends], order[extends]]
    seq = [np.zeros(starts.sum(), dtype=np.int64), np.zeros(extends.sum(), dtype=np.int64),
           np.ones(extends.sum(), dtype=np.int64)]
    codes = [c[starts], c[extends], c[extends]]
    ops = [np.full(starts.sum(), REGISTER, dtype=np.int8), np.full(extends.sum(), REGISTER, dtype=np.int8),
           np.full(extends.sum(), DELETE, dtype=np.int8)]
    window_starts = [t[starts], run.session_start[extends], run.session_start[extends]]
    window_ends = [t[starts] + gap, t[extends] + gap, run.end_before[extends]]
    if assigner.ops:
        code_of = {k: i for i, k in enumerate(distinct)}
        rows.append(np.array(assigner.op_rows, dtype=np.int64))
        seq.append(np.arange(len(assigner.ops), dtype=np.int64))  # row by row, in order already
        codes.append(np.array([code_of[o[0]] for o in assigner.ops], dtype=np.int64))
        ops.append(np.array([o[1] for o in assigner.ops], dtype=np.int8))
        window_starts.append(np.array([o[2][0] for o in assigner.ops], dtype=np.int64))
        window_ends.append(np.array([o[2][1] for o in assigner.ops], dtype=np.int64))
    rows, seq = np.concatenate(rows), np.concatenate(seq)
    by_row = np.lexsort((seq, rows))
    return TimerChanges(dictionary.take(pa.array(np.concatenate(codes)[by_row])), np.concatenate(ops)[by_row],
                        np.concatenate(window_starts)[by_row], np.concatenate(window_ends)[by_row], dropped)
