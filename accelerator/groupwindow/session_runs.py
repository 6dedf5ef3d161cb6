"""SESSION rows of one `update`, assigned a batch at a time where stock's outcome follows from the
key's current session alone, and row by row (`sessions.SessionAssigner`) from the first row of a
key where it does not.

A row after the end of its key's latest session in flight starts a new one. A row that reaches
the latest session (at or after its start, or before it with `time + gap` reaching it) and not the
session before merges with the latest only (`MergingWindowSet.addWindow` finds no other): it
extends the session forwards or backwards (registers the merged session's timer, then deletes the
old one's) or falls into it. Within a key those outcomes are a running maximum of `time + gap` and
a running minimum of the times since the row that started the session, so numpy finds them for
every key at once. A key's rows from the first that reaches two sessions (or lands before the
latest without reaching it) go row by row after the others, and every timer change is put back in
row order. Rows late for the watermark start no session and are dropped; a late row that reaches a
session in flight merges into it, as in stock."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.groupwindow.assignment import DELETE, REGISTER, TimerChanges
from accelerator.groupwindow.sessions import Folds, SessionAssigner
from accelerator.groupwindow.state import GroupWindowState

#: Times beyond which `time + gap` could overflow a long: such batches go row by row.
_TIME_LIMIT = 1 << 61
#: The end of no session: below every row's time.
_NO_END = -(1 << 63)


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
    fresh, slots = _apply_runs(state, distinct, key_groups, order, c, latest, run)
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
    that needs it), and for the others whether it is dropped as late, starts a session (`starts`),
    or changes its key's current session (`extends`: forwards, backwards or both); the session's
    start and end before the row and after it; and which session it is in (`run`: the key's
    latest from before the batch, or one a row of the batch starts)."""

    def __init__(self, slow, dropped, starts, extends, start_before, end_before, start_after, end_after, run,
                 latest_run):
        self.slow, self.dropped, self.starts, self.extends = slow, dropped, starts, extends
        self.start_before, self.end_before = start_before, end_before
        self.start_after, self.end_after = start_after, end_after
        self.run = run
        #: Per run, whether it is its key's latest session from before the batch.
        self.latest_run = latest_run

    @classmethod
    def none(cls, n: int) -> "_Run":
        no = np.zeros(n, dtype=bool)
        zeros = np.zeros(n, dtype=np.int64)
        return cls(np.ones(n, dtype=bool), no, no, no, zeros, zeros, zeros, zeros, zeros, no)

    @classmethod
    def of(cls, c: np.ndarray, t: np.ndarray, gap: int, watermark: int, latest: "_Latest") -> "_Run":
        n = len(c)
        at_first = np.concatenate([[True], c[1:] != c[:-1]])
        late = t + gap - 1 <= watermark
        reach = t + gap
        # The sessions' ends: a running maximum of `time + gap` per key from its latest session's
        # end (rows late for the watermark start nothing, and reach no further than a session in
        # flight they fall into); `none` below every end stands for no session.
        real = reach[~late]
        if latest.has.any():
            real = np.concatenate([real, latest.end[latest.has]])
        none = (int(real.min()) - 1) if len(real) else 0
        initial_end = np.where(latest.has, latest.end, none)
        end_after = _running_max(np.where(late, none, reach), c, at_first, initial_end)
        if end_after is None:
            return cls.none(n)
        end_before = np.where(at_first, initial_end[c], np.concatenate([[none], end_after[:-1]]))
        no_session = end_before == none
        starts = ~late & (no_session | (t > end_before))
        dropped = late & no_session
        # The sessions' starts: a running minimum of the times of each session's rows (a row
        # before the start that reaches it moves the start back), from the row that starts it or
        # the key's latest session's start.
        run_first = at_first | starts
        run = np.cumsum(run_first) - 1
        firsts = np.flatnonzero(run_first)
        latest_run = at_first[firsts] & ~starts[firsts] & latest.has[c[firsts]]
        above = int(t.max()) + 1
        initial_start = np.where(starts[firsts], t[firsts], np.where(latest_run, latest.start[c[firsts]], above))
        start_after = _running_max(-np.where(dropped, above, t), run, run_first, -initial_start)
        if start_after is None:
            return cls.none(n)
        start_after = -start_after
        start_before = np.where(run_first, initial_start[run], np.concatenate([[above], start_after[:-1]]))
        # The end of the session before each run's: it stays as it is while no row of the run
        # reaches back to it.
        previous_end = np.where(latest_run, latest.previous_end[c[firsts]],
                                np.where(no_session[firsts], _NO_END, end_before[firsts]))
        # Rows that merge with the current session only: on or after its start, or before it
        # reaching it but not the session before.
        alone = (t >= start_before) | ((reach >= start_before) & (t > previous_end[run]))
        # A session ending before the epoch has a second timer (`assignment.cleanup_time`), which
        # only the row-by-row assignment names: its key's rows go there from the first row that
        # could make one.
        invalid = ~(no_session | starts | alone) | latest.ineligible[c] | (reach - 1 < 0)
        slow = np.maximum.accumulate(np.where(invalid, c, -1)) == c
        extends = ~slow & ~starts & ~dropped & ((t < start_before) | (reach > end_before))
        return cls(slow, dropped, starts, extends, start_before, end_before, start_after, end_after, run, latest_run)


def _running_max(values: np.ndarray, c: np.ndarray, at_first: np.ndarray, initial: np.ndarray) -> np.ndarray | None:
    """Per row (rows grouped by segment `c`, ascending), the greatest of its segment's `initial`
    and its segment's `values` up to it; None if the segments' value ranges cannot be stacked in a
    long."""
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
    its sessions', its latest session is late, or a session ends before the epoch, which the batch
    assignment does not model)."""

    def __init__(self, d: int):
        self.has = np.zeros(d, dtype=bool)
        self.start = np.zeros(d, dtype=np.int64)
        self.end = np.zeros(d, dtype=np.int64)
        #: The end of the session before the latest (the least long when it has none).
        self.previous_end = np.full(d, _NO_END, dtype=np.int64)
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
        namespaces = entry.namespaces
        last = max(namespaces)
        latest.has[i] = True
        latest.start[i], latest.end[i] = last
        if len(namespaces) > 1:
            latest.previous_end[i] = max(w for w in namespaces if w != last)[1]
        if (last[1] - 1 <= watermark or entry.namespaces.keys() != entry.timers
                or min(w[1] for w in namespaces) - 1 < 0):
            latest.ineligible[i] = True
    return latest


def _apply_runs(state: GroupWindowState, distinct: list[bytes], key_groups: np.ndarray, order: np.ndarray,
                c: np.ndarray, latest: _Latest, run: _Run) -> tuple[list[int], np.ndarray]:
    """Puts the batch-assigned rows' sessions into the state (keys made in the order of their first
    held row, as row by row; each session with its end after its last row, and the timers of the
    sessions it replaced deleted) and answers the slots made (to be reset) and each held row's slot."""
    held = ~run.slow & ~run.dropped
    positions = np.flatnonzero(held)
    if len(positions) == 0:
        return [], np.zeros(0, dtype=np.int64)
    runs = run.run[positions]
    last = np.flatnonzero(np.concatenate([runs[1:] != runs[:-1], [True]]))
    firsts = np.concatenate([[0], last[:-1] + 1])

    held_codes, first = np.unique(c[positions], return_index=True)
    first_rows = order[positions[first]]
    new = [i for i, k in enumerate(held_codes.tolist()) if distinct[k] not in state.keys]
    for i in sorted(new, key=lambda i: first_rows[i]):
        k = int(held_codes[i])
        state.key(distinct[k], int(key_groups[first_rows[i]]))

    ends = positions[last]
    run_codes = c[ends]
    fresh, run_slots = [], []
    for code, latest_run, start, end in zip(run_codes.tolist(), run.latest_run[runs[last]].tolist(),
                                            run.start_after[ends].tolist(), run.end_after[ends].tolist()):
        key = distinct[code]
        entry = state.keys[key]
        if latest_run:
            previous = (int(latest.start[code]), int(latest.end[code]))
            slot = entry.namespaces[previous]
            if (start, end) != previous:
                del entry.namespaces[previous]
                entry.namespaces[(start, end)] = slot
                state.delete(entry, previous)
                state.register(key, entry, (start, end))
        else:
            slot = state.add_namespace(entry, (start, end), reset=False)
            fresh.append(slot)
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
    window_starts = [t[starts], run.start_after[extends], run.start_before[extends]]
    window_ends = [t[starts] + gap, run.end_after[extends], run.end_before[extends]]
    # Rows here make no session ending before the epoch: every timer is a trigger's, at end - 1.
    timer_times = [e - 1 for e in window_ends]
    if assigner.ops:
        code_of = {k: i for i, k in enumerate(distinct)}
        rows.append(np.array(assigner.op_rows, dtype=np.int64))
        seq.append(np.arange(len(assigner.ops), dtype=np.int64))  # row by row, in order already
        codes.append(np.array([code_of[o[0]] for o in assigner.ops], dtype=np.int64))
        ops.append(np.array([o[1] for o in assigner.ops], dtype=np.int8))
        window_starts.append(np.array([o[2][0] for o in assigner.ops], dtype=np.int64))
        window_ends.append(np.array([o[2][1] for o in assigner.ops], dtype=np.int64))
        timer_times.append(np.array([o[3] for o in assigner.ops], dtype=np.int64))
    rows, seq = np.concatenate(rows), np.concatenate(seq)
    by_row = np.lexsort((seq, rows))
    return TimerChanges(dictionary.take(pa.array(np.concatenate(codes)[by_row])), np.concatenate(ops)[by_row],
                        np.concatenate(window_starts)[by_row], np.concatenate(window_ends)[by_row],
                        np.concatenate(timer_times)[by_row], dropped)
