"""A key's state rows cut over consecutive `restore` calls, handed to the stage whole.

The JVM restores a key group's rows in calls of at most `accelerator.batch.max-bytes`, cut by rows
(a key group larger than a snapshot piece comes back as a frame per piece, and each frame in as many
calls as its bytes need), so the rows of a key that holds several (a join's held rows, a Top-N's top
rows) can straddle two calls. A call whose key group goes on in the next call says so
(`RESTORE_CONTINUES`); the rows of its last key are held back, copied out of the request region the
next request overwrites, and handed to the stage in front of the next call's rows. So each stage
sees every key's rows in one call, provided its snapshot writes a key's rows next to each other
within their key group, and keeps refusing a key restored twice: in two key groups, or in calls
that do not follow each other. Held back at a time: one key's rows (a key larger than a call
gathers until its last row arrives, the state the stage then holds anyway), never a key group's.
No stage changes for it: the generic `keyed_state.run_call` runs every restore through `gather`.
"""

from __future__ import annotations

import weakref

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.sidecar import state_calls
from accelerator.sidecar.state_calls import CallError

#: The columns of every state row naming its Flink key group and its key (`keyed_state`).
KEY_GROUP = "$key_group"
KEY = "$key"

#: The rows held back for the next restore call, by the state they are restored into.
_HELD: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def gather(stage: str | None, state, batch: pa.RecordBatch) -> pa.RecordBatch | None:
    """The rows the stage restores at this restore call: those held back from the call before, then
    `batch`'s, but for the rows of `batch`'s last key when its key group goes on in the next call;
    None when every row is held back (the call holds one key's rows only). Carries `batch`'s metadata."""
    held = _HELD.pop(state, [])
    if held and batch.num_rows:
        before, now = _value(held[-1], KEY_GROUP, -1), _value(batch, KEY_GROUP, 0)
        if before != now:
            raise CallError(f"stage {stage!r}: the last restore call said key group {before} goes on in the next"
                            f" restore call, but that call restores key group {now}; the operator restores a key"
                            f" group's calls one after the other, the last of them saying it does not go on")
    if state_calls.optional_text(batch, state_calls.RESTORE_CONTINUES) == "1" and batch.num_rows:
        start = _last_key_start(batch)
        tail = _copy(batch.slice(start))
        if start == 0 and held and _value(held[-1], KEY, -1) == _value(batch, KEY, 0):
            _HELD[state] = held + [tail]
            return None
        _HELD[state] = [tail]
        batch = batch.slice(0, start)
    if not held:
        return batch
    rows = pa.concat_batches([b.replace_schema_metadata(None) for b in held + [batch]])
    return rows.replace_schema_metadata(batch.schema.metadata)


def check_none_held(stage: str | None, state, call: str) -> None:
    """Fails when a call other than `restore` comes while a restore call's key group was said to go on."""
    held = _HELD.pop(state, None)
    if held:
        raise CallError(f"stage {stage!r}: the last restore call said key group {_value(held[-1], KEY_GROUP, -1)}"
                        f" goes on in the next restore call, but the next call is {call!r}; the"
                        f" {sum(b.num_rows for b in held)} rows of its last key were not restored: restart the job"
                        f" from its last checkpoint")


def _last_key_start(batch: pa.RecordBatch) -> int:
    """The first row of the run of rows holding the batch's last key."""
    keys = batch.column(KEY)
    other = np.flatnonzero(~pc.equal(keys, keys[-1]).fill_null(False).to_numpy(zero_copy_only=False))
    return int(other[-1]) + 1 if len(other) else 0


def _copy(rows: pa.RecordBatch) -> pa.RecordBatch:
    """`rows` in buffers of their own, off the request region."""
    return rows.take(pa.array(np.arange(rows.num_rows), pa.int64())).replace_schema_metadata(None)


def _value(batch: pa.RecordBatch, column: str, row: int):
    return batch.column(column)[row].as_py()
