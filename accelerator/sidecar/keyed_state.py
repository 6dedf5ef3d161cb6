"""Checks every stateful stage (window aggregate, group aggregate, deduplication) makes on the
keyed state it holds for a JVM operator: its size against the operator's managed-memory budget,
the format and query fingerprint of a state being restored, and the columns of a call; and how a
call is dispatched and answered with the state gauges. One place, so each operator family fails
the same way, with what to change."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar import restore_pieces, snapshot_pieces, state_calls
from accelerator.sidecar.state_calls import CallError

#: The column of every state row and update row naming its Flink key group.
KEY_GROUP = "$key_group"
#: The column of every state row and update row holding the key (the bytes of Flink's binary key row).
KEY = "$key"

#: The columns before the values in a changelog stage's update answer: the batch row and its RowKind byte.
ROW = "$row"
CHANGE = "$kind"
#: The answer of a call that answers no rows (restore).
EMPTY = pa.RecordBatch.from_arrays([], schema=pa.schema([]))



def keyed_input_fields(descriptor: dict, refuse) -> list[tuple[str, types.DataType]]:
    """A keyed stage's input fields (name, type), which the JVM operator starts with `$key` and
    `$key_group`; `refuse(reason)` makes the error when they do not."""
    fields = [(f["name"], types.parse(f["type"])) for f in descriptor["input"]["fields"]]
    if [n for n, _ in fields[:2]] != [KEY, KEY_GROUP]:
        raise refuse(f"input fields start {[n for n, _ in fields[:2]]}, not {[KEY, KEY_GROUP]}")
    return fields

def run_call(stage: str | None, kind: str, calls: dict, state, batch: pa.RecordBatch) -> pa.RecordBatch:
    """Runs the one of `calls` the batch names; the answer carries the gauges of `state` (its
    `entries` and `nbytes()`). A `snapshot` naming a piece answers that piece of the checkpoint's
    snapshot (`snapshot_pieces`); a `restore` hands the stage its keys' rows whole, gathered over
    the calls a key group's rows were cut into (`restore_pieces`)."""
    call = state_calls.call_of(batch)
    if call not in calls:
        raise CallError(f"stage {stage!r}: a {kind} stage answers {list(calls)}, not {call!r}")
    if call == "restore":
        snapshot_pieces.drop(state)
        rows = restore_pieces.gather(stage, state, batch)
        answer = EMPTY if rows is None else calls[call](rows)
    else:
        restore_pieces.check_none_held(stage, state, call)
        if call == "snapshot" and state_calls.SNAPSHOT_PIECE in (batch.schema.metadata or {}):
            answer = snapshot_pieces.serve(stage, state, lambda: calls[call](batch), batch)
        else:
            snapshot_pieces.drop(state)
            answer = snapshot_pieces.whole(calls[call](batch)) if call == "snapshot" else calls[call](batch)
    metadata = {**(answer.schema.metadata or {}),
                state_calls.STATE_ENTRIES: str(state.entries).encode(),
                state_calls.STATE_BYTES: str(state.nbytes()).encode()}
    return answer.replace_schema_metadata(metadata)


def check_new_keys(stage: str | None, keys: pa.Array, holds, error: type[Exception]) -> None:
    """Fails with `error` when restored `keys` repeat a key or one the stage `holds` already."""
    listed = keys.to_pylist()
    if len(set(listed)) != len(listed) or any(holds(k) for k in listed):
        raise error(f"stage {stage!r}: restored state holds a key twice")


class StateBudgetError(ValueError):
    """The state outgrew the managed memory the operator reserved for it."""


def check_budget(stage: str, held: str, entries: str, size: int, batch: pa.RecordBatch,
                 spilled: str = "this version does not spill state to disk") -> None:
    """Fails when `size` bytes of state (`held` says what, `entries` how many, for the message)
    exceed the budget the call carries (`state_calls.STATE_BUDGET`); `spilled` says what went to
    disk already."""
    budget = state_calls.long(batch, state_calls.STATE_BUDGET)
    if size > budget:
        raise StateBudgetError(
            f"stage {stage!r}: {held} ({entries}, {size} bytes) outgrew its budget of {budget} bytes, the operator's share"
            f" of the slot's managed memory; raise taskmanager.memory.managed.size, or the OPERATOR weight in"
            f" taskmanager.memory.managed.consumer-weights, or the job's parallelism ({spilled})")


def check_state_format(stage: str, batch: pa.RecordBatch, version: int, fingerprint: str | None,
                       error: type[Exception], operator: str, parts: str) -> None:
    """Fails with `error` when the state being restored was written in another format than
    `version`, or for another query (`fingerprint`: the `operator`'s `parts` differ)."""
    written = state_calls.long(batch, state_calls.STATE_FORMAT)
    if written != version:
        by = " by a newer flink-accelerator" if written > version else " by an older flink-accelerator"
        raise error(f"stage {stage!r}: state written{by} in state format {written}; this sidecar reads format"
                    f" {version}")
    if fingerprint is not None and state_calls.text(batch, state_calls.STATE_FINGERPRINT) != fingerprint:
        raise error(f"stage {stage!r}: the query's {operator} changed ({parts}); this state cannot be restored into it")


def state_metadata(version: int, fingerprint: str | None) -> dict[bytes, bytes]:
    """The schema metadata a snapshot's state batch carries: its format and the query's fingerprint."""
    metadata = {state_calls.STATE_FORMAT: str(version).encode()}
    if fingerprint is not None:
        metadata[state_calls.STATE_FINGERPRINT] = fingerprint.encode()
    return metadata


def restored_key_groups(stage: str, batch: pa.RecordBatch, error: type[Exception]) -> np.ndarray:
    """The key group of each restored row; fails with `error` for one outside the subtask's range
    (the call's `state_calls.KEY_GROUP_START`..`KEY_GROUP_END`)."""
    first, last = state_calls.long(batch, state_calls.KEY_GROUP_START), state_calls.long(batch, state_calls.KEY_GROUP_END)
    key_groups = batch.column(KEY_GROUP).to_numpy(zero_copy_only=False)
    outside = (key_groups < first) | (key_groups > last)
    if outside.any():
        raise error(f"stage {stage!r}: restored state holds key group {int(key_groups[outside][0])}, outside this"
                    f" subtask's key groups {first}-{last}; Flink hands each subtask only its own key groups, so the"
                    f" state was not written for this job's max parallelism")
    return key_groups


def check_columns(stage: str, batch: pa.RecordBatch, schema: pa.Schema, call: str) -> None:
    """Fails when a call's columns are not the ones its stage was opened for."""
    got = [(f.name, f.type) for f in batch.schema]
    want = [(f.name, f.type) for f in schema]
    if got != want:
        raise CallError(f"stage {stage!r}: {call} columns {_describe(got)} are not {_describe(want)}")


def _describe(fields) -> str:
    return "[" + ", ".join(f"{n} {t}" for n, t in fields) + "]"
