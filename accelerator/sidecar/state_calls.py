"""The calls of a stateful stage (window aggregate, group aggregate, deduplication) as they travel
over the unchanged transport: which call a request is, and its arguments, are the request schema's
metadata; what the answer says besides its rows is the answer schema's metadata (as
`accelerator.skipped` does for the segment stage). Every number is a decimal string (Java's
`Long.toString`). Each family's own calls and metadata are its module's (`windowagg.protocol`); see
the call table of docs/design/stateful-window-aggregate.md §3.1."""

from __future__ import annotations

import pyarrow as pa

CALL = b"accelerator.call"

#: restore: the key-group range of the subtask, inclusive at both ends (Flink's KeyGroupRange).
KEY_GROUP_START = b"accelerator.key_group_start"
KEY_GROUP_END = b"accelerator.key_group_end"
#: snapshot answer and restore request: the Arrow payload's state format and the descriptor's
#: state fingerprint it was written for.
STATE_FORMAT = b"accelerator.state_format"
STATE_FINGERPRINT = b"accelerator.state_fingerprint"
#: the calls that grow the state: the bytes of managed memory the operator reserved for the
#: state; past them the call fails (a join first spills its held rows to disk).
STATE_BUDGET = b"accelerator.state_budget"
#: snapshot request: which piece of the checkpoint's snapshot (0 takes the snapshot) and the most
#: Arrow buffer bytes a piece holds; its answer: how many pieces the snapshot has, and "1" when the
#: piece's last key group goes on in the next piece, else "0" (`snapshot_pieces`).
SNAPSHOT_PIECE = b"accelerator.snapshot_piece"
SNAPSHOT_PIECE_BYTES = b"accelerator.snapshot_piece_bytes"
SNAPSHOT_PIECES = b"accelerator.snapshot_pieces"
SNAPSHOT_CONTINUES = b"accelerator.snapshot_continues"
#: restore request: "1" when the call's last key group goes on in the next restore call (its rows
#: were cut by rows into calls, or over snapshot pieces), else "0" (`restore_pieces`).
RESTORE_CONTINUES = b"accelerator.restore_continues"
#: the calls that grow the state, optional: a local directory for spill files (one of the
#: TaskManager's io.tmp.dirs) and the operator's subtask index, which names them.
SPILL_DIRECTORY = b"accelerator.spill_directory"
SUBTASK_INDEX = b"accelerator.subtask_index"
#: every answer: the state's entries and approximate bytes after the call (gauges).
STATE_ENTRIES = b"accelerator.state_entries"
STATE_BYTES = b"accelerator.state_bytes"


class CallError(ValueError):
    """A request this stage cannot answer: unknown call, missing or malformed metadata."""


def call_of(batch: pa.RecordBatch) -> str:
    """The call the request names (which calls a stage answers is the stage's to say)."""
    metadata = batch.schema.metadata or {}
    if CALL not in metadata:
        raise CallError(f"the request names no call (schema metadata {CALL.decode()!r})")
    return metadata[CALL].decode()


def text(batch: pa.RecordBatch, key: bytes) -> str:
    metadata = batch.schema.metadata or {}
    if key not in metadata:
        raise CallError(f"{call_of(batch)} needs schema metadata {key.decode()!r}")
    return metadata[key].decode()


def optional_text(batch: pa.RecordBatch, key: bytes) -> str | None:
    value = (batch.schema.metadata or {}).get(key)
    return None if value is None else value.decode()


def long(batch: pa.RecordBatch, key: bytes) -> int:
    """A metadata value that is a Java long."""
    value = text(batch, key)
    try:
        number = int(value)
    except ValueError:
        raise CallError(f"metadata {key.decode()!r} is {value!r}, not a decimal long") from None
    if not -2 ** 63 <= number < 2 ** 63:
        raise CallError(f"metadata {key.decode()!r} is {value}, outside Java's long")
    return number


def answer(batch: pa.RecordBatch, **metadata: int | str) -> pa.RecordBatch:
    """`batch` with the given metadata (keys without the `accelerator.` prefix)."""
    return batch.replace_schema_metadata({f"accelerator.{k}".encode(): str(v).encode() for k, v in metadata.items()})
