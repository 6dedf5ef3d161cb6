"""A stateful stage's snapshot handed to the JVM in pieces of bounded bytes, so a state larger than
the operator's Arrow memory still checkpoints (the JVM holds one piece at a time and writes it into
Flink's raw keyed state as it arrives, `SidecarStateOperator`).

The protocol, over successive `snapshot` calls (`state_calls.SNAPSHOT_PIECE` and
`SNAPSHOT_PIECE_BYTES` in the request, `SNAPSHOT_PIECES` and `SNAPSHOT_CONTINUES` in the answer):
piece 0 takes the stage's snapshot once for the checkpoint and cuts it (`cuts`); every call answers
the piece it names with the count of pieces and whether its last key group goes on in the next
piece; the last piece, or any other call of the stage, drops the snapshot. No stage changes for
it: the generic `keyed_state.run_call` serves the pieces of whatever `snapshot` answers. A stage
whose snapshot is large may answer a `Deferred` one instead of its rows: its order and sizes, each
piece's rows then made when asked for, so the whole snapshot is never copied at once (a piece's
buffers are the ones the last piece freed, where a snapshot copied whole takes as much fresh memory
as the state, which costs more CPU to fault in than the copy itself).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.sidecar import state_calls
from accelerator.sidecar.state_calls import CallError

#: The column of every snapshot row naming its Flink key group (`keyed_state.KEY_GROUP`).
KEY_GROUP = "$key_group"

#: The snapshot being handed over, by the state it was taken of (a closed stage's goes with it).
_HANDED_OVER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Deferred:
    """A snapshot whose rows are made a piece at a time: `key_groups` per row (grouped, ascending),
    `row_bytes` per row (the Arrow buffer bytes it takes in a piece, not less), and `rows(first,
    count)`, the rows `first` to `first + count` as a batch with the snapshot's schema and metadata."""

    key_groups: np.ndarray
    row_bytes: np.ndarray
    rows: Callable[[int, int], pa.RecordBatch]

    @property
    def num_rows(self) -> int:
        return len(self.key_groups)


def whole(snapshot: pa.RecordBatch | Deferred) -> pa.RecordBatch:
    """A snapshot's rows in one batch (a snapshot call that names no piece)."""
    return snapshot.rows(0, snapshot.num_rows) if isinstance(snapshot, Deferred) else snapshot


def cuts(batch: pa.RecordBatch | Deferred, max_bytes: int) -> list[tuple[int, int]]:
    """(first row, rows) ranges covering `batch` (grouped by key group) once, in order, each of at
    most `max_bytes` of Arrow buffers (the slice's `nbytes`, a deferred snapshot's `row_bytes`): as
    many whole key groups as fit; a key group larger than that alone is cut by rows, its rest going
    on with the key groups after it; a single row larger than the bound goes alone. One empty range
    for no rows. A key group that fits in a piece is never cut, so the JVM writes it as one frame, as
    before pieces (`KeyGroupFrames`)."""
    if max_bytes < 1:
        raise CallError(f"a snapshot piece of at most {max_bytes} bytes holds nothing")
    rows = batch.num_rows
    if rows == 0:
        return [(0, 0)]
    key_groups, nbytes, _ = _parts(batch)

    def fits(first: int, end: int) -> bool:
        return nbytes(first, end) <= max_bytes

    ends = np.append(np.flatnonzero(np.diff(key_groups)) + 1, rows)  # where each key group's rows end

    out = []
    first = 0
    while first < rows:
        candidates = ends[np.searchsorted(ends, first, side="right"):]
        whole = _last_true(len(candidates), lambda i: fits(first, int(candidates[i])))
        if whole >= 0:
            end = int(candidates[whole])
        else:  # the key group at `first` alone exceeds the bound: as many of its rows as fit, one at least
            end = first + 2 + _last_true(int(candidates[0]) - first - 1, lambda i: fits(first, first + 2 + i))
        out.append((first, end - first))
        first = end
    return out


def _parts(snapshot: pa.RecordBatch | Deferred) -> tuple[np.ndarray, Callable[[int, int], int],
                                                       Callable[[int, int], pa.RecordBatch]]:
    """A snapshot's key group per row, the Arrow bytes of its rows `first` to `end` (a slice's
    `nbytes`, or the sum of a deferred snapshot's `row_bytes`) and its rows `(first, count)`."""
    if isinstance(snapshot, Deferred):
        before = np.concatenate([[0], np.cumsum(snapshot.row_bytes)])  # the bytes of the rows before each
        return snapshot.key_groups, lambda first, end: int(before[end] - before[first]), snapshot.rows
    return (snapshot.column(KEY_GROUP).to_numpy(zero_copy_only=False),
            lambda first, end: snapshot.slice(first, end - first).nbytes, snapshot.slice)


def _last_true(n: int, test) -> int:
    """The last i in 0..n-1 with test(i) (true up to some i, false after it), or -1."""
    low, high = -1, n  # test(low) holds (or low is -1), test(high) fails (or high is n)
    while high - low > 1:
        middle = (low + high) // 2
        if test(middle):
            low = middle
        else:
            high = middle
    return low


class _Pieces:
    """One checkpoint's snapshot and where its pieces start and end."""

    def __init__(self, snapshot: pa.RecordBatch | Deferred, max_bytes: int):
        self.cuts = cuts(snapshot, max_bytes)
        self.key_groups, _, self.rows = _parts(snapshot)

    def piece(self, index: int) -> pa.RecordBatch:
        first, rows = self.cuts[index]
        after = first + rows
        continues = after < len(self.key_groups) and self.key_groups[after - 1] == self.key_groups[after]
        rows = self.rows(first, rows)
        metadata = {**(rows.schema.metadata or {}), state_calls.SNAPSHOT_PIECES: str(len(self.cuts)).encode(),
                    state_calls.SNAPSHOT_CONTINUES: b"1" if continues else b"0"}
        return rows.replace_schema_metadata(metadata)


def serve(stage: str | None, state, take_snapshot, request: pa.RecordBatch) -> pa.RecordBatch:
    """The piece `request` names of the snapshot of `state`; piece 0 takes it (`take_snapshot()`,
    its rows or a `Deferred` snapshot)."""
    index = state_calls.long(request, state_calls.SNAPSHOT_PIECE)
    if index == 0:
        max_bytes = state_calls.long(request, state_calls.SNAPSHOT_PIECE_BYTES)
        _HANDED_OVER.pop(state, None)  # an unfinished handover's snapshot goes before the next is taken
        _HANDED_OVER[state] = _Pieces(take_snapshot(), max_bytes)
    pieces = _HANDED_OVER.get(state)
    if pieces is None or not 0 <= index < len(pieces.cuts):
        held = "no snapshot is being handed over" if pieces is None else f"the snapshot has {len(pieces.cuts)} pieces"
        raise CallError(f"stage {stage!r}: snapshot piece {index} was asked for, but {held}; the operator asks for"
                        f" piece 0 at each checkpoint, then each next piece up to the count the answers carry")
    answer = pieces.piece(index)
    if index == len(pieces.cuts) - 1:
        del _HANDED_OVER[state]
    return answer


def drop(state) -> None:
    """Ends a handover a checkpoint left unfinished (a call other than the next piece came)."""
    _HANDED_OVER.pop(state, None)
