"""Table rows from a message's key and value rows, and back, as Flink's Kafka connector makes them.

Flink's Kafka source decodes a message's key first, then its value, and emits, for each value row
in order, one table row per key row (a json key holding an array gives several; a null key, or
one its format skips, gives none, so the message gives no row at all). A column comes from the
value row when the value format carries it ('value.fields-include' = 'ALL') and from the key row
otherwise. The sink writes the key fields with the key format (under their names without
'key.fields-prefix') and the value fields with the value format.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa


@dataclass(frozen=True)
class Rows:
    """Decoded rows of one batch; `kept[i]` is the message row i came from (None: row i came from
    message i, every message gave one row)."""

    batch: pa.RecordBatch
    kept: pa.Array | None


@dataclass(frozen=True)
class KeyLayout:
    """Where key rows go: `fields[i]` is the table column that key row field i fills; `columns`
    is the order of the table's physical columns (the plan's input, before metadata)."""

    fields: tuple[str, ...]
    columns: tuple[str, ...]

    @classmethod
    def of(cls, spec: dict) -> "KeyLayout":
        return cls(tuple(spec["fields"]), tuple(spec["columns"]))


def join(value: Rows, key: Rows, messages: int, layout: KeyLayout) -> Rows:
    """The table rows Flink's source emits for these value and key rows of `messages` messages."""
    value_source = _sources(value, messages)
    key_source = _sources(key, messages)
    keys_per_message = np.bincount(key_source, minlength=messages)
    first_key = np.concatenate(([0], np.cumsum(keys_per_message)[:-1]))
    repeats = keys_per_message[value_source]
    value_rows = np.repeat(np.arange(len(value_source)), repeats)
    # Within each value row's run, its message's key rows in order.
    run_starts = np.repeat(np.cumsum(repeats) - repeats, repeats)
    key_rows = np.repeat(first_key[value_source], repeats) + (np.arange(len(value_rows)) - run_starts)
    value_taken = value.batch.take(pa.array(value_rows, pa.int64()))
    key_taken = key.batch.take(pa.array(key_rows, pa.int64()))
    from_key = dict(zip(layout.fields, key_taken.columns))
    value_names = set(value.batch.schema.names)
    columns = [value_taken.column(name) if name in value_names else from_key[name] for name in layout.columns]
    batch = pa.RecordBatch.from_arrays(columns, names=list(layout.columns))
    sources = value_source[value_rows]
    if len(sources) == messages and np.array_equal(sources, np.arange(messages)):
        return Rows(batch, None)
    return Rows(batch, pa.array(sources, pa.int32()))


def _sources(rows: Rows, messages: int) -> np.ndarray:
    if rows.kept is None:
        return np.arange(messages)
    return rows.kept.to_numpy(zero_copy_only=False).astype(np.int64)


def project(result: pa.RecordBatch, fields: list[str], names: list[str]) -> pa.RecordBatch:
    """The columns `fields` of the plan's result, named `names` (the row type a format encodes)."""
    return pa.RecordBatch.from_arrays([result.column(f) for f in fields], names=names)
