"""Which rows stock Flink 2.2.1's deduplicate functions emit for a batch, computed for the batch
at once over the state carried in per key.

Per row, stock reads the key's state and:
- keep first row, processing time (`ProcTimeDeduplicateKeepFirstRowFunction`): emits the row as it
  came (+I) when the key had none, else nothing.
- keep last row, processing time (`ProcTimeDeduplicateKeepLastRowFunction`, with inserts or
  update-befores asked for): keeps the row; emits +I when the key had none; else nothing when the
  generated equaliser finds the kept row equal to this one, else -U kept (with update-befores) and
  +U row. The equaliser compares two binary rows byte for byte, their RowKind header included, and
  the heap state holds the very row object emitted, so a kept row emitted as +U (its kind set to
  UPDATE_AFTER) never equals the next row, while one emitted as +I, or suppressed, does when its
  fields' bytes do (floats by their bits: NaN equals the same NaN, 0.0 differs from -0.0).
- without inserts nor update-befores, keep last row on processing time emits every row as +U.
- keep last row, event time (`RowTimeDeduplicateFunction`): the row replaces the kept one when
  the key had none or its rowtime is at least the kept one's (a later row with an equal rowtime
  wins, equal fields or not); a replacing row emits +I when the key had none, else -U kept (with
  update-befores) and +U row; without inserts nor update-befores, +U row. (Keeping the first row
  on event time, stock 2.2.1 runs another function, not accelerated.)

Keeping the first row on processing time and the last on event time take one pass over the batch
sorted by key (`windowagg.segments`): the kept rowtime before each row is a running maximum, and
the kept row the last row before it that replaced. Keeping the last row on processing time, whose
suppression depends on what the previous row emitted, takes the rows by occurrence level (the r-th
row of its key in the batch): the rows of one level have distinct keys, so each level is one
vectorized step over their keys' state, and the levels run in order. A level per row of a hot key
made that path a tenth as fast as the one pass on Nexmark's hot auctions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.dedup.spec import PROCTIME, DedupSpec
from accelerator.dedup.state import DedupState
from accelerator.formats import timestamps
from accelerator.groupagg.emission import occurrence
from accelerator.sidecar.row_kinds import INSERT, UPDATE_AFTER, UPDATE_BEFORE
from accelerator.windowagg.segments import Segments


@dataclass(frozen=True)
class Emission:
    """The rows to emit, in order: the batch row each belongs to, its RowKind byte and where its
    values are: store row `source`, or batch row `source - len(store)`."""

    rows: np.ndarray
    kinds: np.ndarray
    sources: np.ndarray


class _Out:
    def __init__(self):
        self.rows, self.order, self.kinds, self.sources = [], [], [], []

    def add(self, rows: np.ndarray, order: int, kind: int, sources: np.ndarray) -> None:
        self.rows.append(rows)
        self.order.append(np.full(len(rows), order, dtype=np.int8))
        self.kinds.append(np.full(len(rows), kind, dtype=np.int8))
        self.sources.append(sources)

    def emission(self) -> Emission:
        if not self.rows:
            empty = np.zeros(0, dtype=np.int64)
            return Emission(empty, np.zeros(0, dtype=np.int8), empty)
        rows, order = np.concatenate(self.rows), np.concatenate(self.order)
        by = np.lexsort((order, rows))
        return Emission(rows[by], np.concatenate(self.kinds)[by], np.concatenate(self.sources)[by])


def equal_rows(left: pa.Table, right: pa.Table) -> np.ndarray:
    """Per row, whether the two rows' fields are equal as Flink's binary rows compare them."""
    out = np.ones(left.num_rows, dtype=bool)
    for a, b in zip(left.columns, right.columns):
        out &= _equal_values(a.combine_chunks(), b.combine_chunks())
    return out


def _equal_values(a: pa.Array, b: pa.Array) -> np.ndarray:
    a_null = a.is_null().to_numpy(zero_copy_only=False)
    b_null = b.is_null().to_numpy(zero_copy_only=False)
    if pa.types.is_struct(a.type):  # a timestamp: its millis and nanos
        same = np.ones(len(a), dtype=bool)
        for i in range(a.type.num_fields):
            same &= _equal_values(pc.struct_field(a, [i]), pc.struct_field(b, [i]))
    elif pa.types.is_floating(a.type):
        bits = np.int32 if a.type == pa.float32() else np.int64
        same = (a.fill_null(0).to_numpy(zero_copy_only=False).view(bits)
                == b.fill_null(0).to_numpy(zero_copy_only=False).view(bits))
    else:
        same = pc.fill_null(pc.equal(a, b), False).to_numpy(zero_copy_only=False)
    return (a_null & b_null) | (~a_null & ~b_null & same)


def rowtimes(spec: DedupSpec, rows: pa.Table) -> np.ndarray:
    """The rows' rowtimes in epoch milliseconds, as stock reads them: `RowData.getLong` of the
    binary row, which is 0 for a NULL (Flink's row writer zeroes a NULL field's slot)."""
    millis = timestamps.millis(rows.column(spec.rowtime).combine_chunks())
    return pc.fill_null(millis, 0).to_numpy(zero_copy_only=False)


def choose(spec: DedupSpec, state: DedupState, slots: np.ndarray, rows: pa.Table) -> Emission:
    """The batch's emission; the slots' state moves past the batch (kept rows at `len(store) + row`
    until `state.keep`)."""
    n = rows.num_rows
    out = _Out()
    if spec.stateless:
        out.add(np.arange(n), 0, UPDATE_AFTER, state.rows.num_rows + np.arange(n))
        return out.emission()
    if not spec.keeps_rows:
        return _first_rows(state, slots, out)
    if spec.order != PROCTIME:
        return _last_rows_by_rowtime(spec, state, slots, rowtimes(spec, rows), out)
    rank = occurrence(slots)
    positions = np.argsort(rank, kind="stable")
    bounds = np.cumsum(np.bincount(rank)) if n else np.zeros(0, dtype=np.int64)
    base = state.rows.num_rows
    times = rowtimes(spec, rows) if spec.order != PROCTIME else None
    emits_changes = spec.generate_update_before or spec.generate_insert
    for level in (np.split(positions, bounds[:-1]) if n else []):
        s = slots[level]
        current = base + level
        if not spec.keeps_rows:
            new = ~state.present[s]
            state.present[s] = True
            out.add(level[new], 0, INSERT, current[new])
            continue
        prev = state.kept[s]
        none = prev < 0
        if spec.order == PROCTIME:
            replace = np.ones(len(level), dtype=bool)
            suppressed = np.zeros(len(level), dtype=bool)
            has = np.flatnonzero(~none & (state.kept_kind[s] == INSERT))
            if len(has):
                suppressed[has] = equal_rows(_rows_at(state, rows, prev[has]), rows.take(pa.array(level[has])))
        else:
            replace = none | (times[level] >= state.kept_rowtime[s])
            suppressed = np.zeros(len(level), dtype=bool)
            state.kept_rowtime[s[replace]] = times[level[replace]]
        _add_replacements(spec, out, level, replace & ~suppressed, none, prev, current)
        # The kept row is the one stock's heap state holds: the replacing row, whose emission set its kind.
        kinds = np.where(emits_changes & (none | suppressed), INSERT, UPDATE_AFTER).astype(np.int8)
        state.kept_kind[s[replace]] = kinds[replace]
        state.kept[s[replace]] = current[replace]
    return out.emission()


def _first_rows(state: DedupState, slots: np.ndarray, out: _Out) -> Emission:
    """Keep first row on processing time: +I for each key's first row when the key had none."""
    segments = Segments(slots)
    new = ~state.present[segments.slots]
    state.present[segments.slots] = True
    rows = segments.order[segments.starts[new]]
    out.add(rows, 0, INSERT, state.rows.num_rows + rows)
    return out.emission()


def _last_rows_by_rowtime(spec: DedupSpec, state: DedupState, slots: np.ndarray, times: np.ndarray,
                          out: _Out) -> Emission:
    """Keep last row on event time, in one pass over the rows sorted by key: a row replaces when
    its key had none or its rowtime is at least the largest before it (the kept one's)."""
    segments = Segments(slots)
    base = state.rows.num_rows
    kept, had = state.kept[segments.slots], state.kept[segments.slots] >= 0
    floor = np.iinfo(np.int64).min  # below every rowtime: a key without a row takes its first
    initial = np.where(had, state.kept_rowtime[segments.slots], floor)
    sorted_times = times[segments.order]
    latest = segments.cumulative_extreme(initial, sorted_times, smallest=False)
    none = ~had[segments.seg] & (np.arange(len(slots)) == segments.starts[segments.seg])
    replace = none | (sorted_times >= segments.before(latest, initial))
    # The kept row before each row: the last replacing row before it in its key, else the kept one.
    replacing = np.where(replace, np.arange(len(slots)), -1)
    last = segments.before(np.maximum.accumulate(replacing), np.full(len(kept), -1))
    earlier = last >= segments.starts[segments.seg]
    current = base + segments.order
    prev = np.where(earlier, current[np.maximum(last, 0)], kept[segments.seg])
    _add_replacements(spec, out, segments.order, replace, none, prev, current)
    emits_changes = spec.generate_update_before or spec.generate_insert
    kinds = np.where(emits_changes & none, INSERT, UPDATE_AFTER).astype(np.int8)
    # Per key, its last replacing row (every key has one when it had no row before the batch).
    final = np.maximum.accumulate(replacing)[segments.ends]
    moved = final >= segments.starts
    keys = segments.slots[moved]
    state.kept[keys] = current[final[moved]]
    state.kept_kind[keys] = kinds[final[moved]]
    state.kept_rowtime[keys] = latest[segments.ends[moved]]
    return out.emission()


def _add_replacements(spec: DedupSpec, out: _Out, rows: np.ndarray, emitting: np.ndarray, none: np.ndarray,
                      prev: np.ndarray, current: np.ndarray) -> None:
    """What the `emitting` rows among `rows` emit (`none`: their key kept no row; `prev`, `current`:
    the sources of the kept row and of the row): +I when the key had none, else -U kept (with
    update-befores) and +U row; without inserts nor update-befores, +U row."""
    if spec.generate_update_before or spec.generate_insert:
        first, update = emitting & none, emitting & ~none
        out.add(rows[first], 1, INSERT, current[first])
        if spec.generate_update_before:
            out.add(rows[update], 0, UPDATE_BEFORE, prev[update])
        out.add(rows[update], 1, UPDATE_AFTER, current[update])
    else:
        out.add(rows[emitting], 1, UPDATE_AFTER, current[emitting])


def _rows_at(state: DedupState, rows: pa.Table, sources: np.ndarray) -> pa.Table:
    """The rows at `sources`: store rows, or batch rows past them."""
    return state.rows.take_with(rows, sources)
