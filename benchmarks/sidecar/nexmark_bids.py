"""Nexmark bids as a keyed stateful operator's batches: the bid rows of the bench's generator
(`accelerator.bench.nexmark`, the same events `accelerator bench` produces into Kafka) with the
transport columns the JVM operator adds, `$key` (the key's BinaryRowData bytes) and `$key_group`,
cut into batches as the operator sends them, for the in-process stage benchmarks of Top-N and
deduplication."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.bench import nexmark

#: The `bid` view's fields, as the descriptor names them.
BID_FIELDS = [{"name": f.name, "type": f.type.serializable()} for f in nexmark.ROW_TYPE.fields[3].type.fields]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"}]
BUDGET = str(1 << 40).encode()
#: A restore call's metadata for every key group (the state's own format metadata comes with it).
RESTORE = {b"accelerator.call": b"restore", b"accelerator.state_budget": BUDGET,
           b"accelerator.key_group_start": b"0", b"accelerator.key_group_end": b"127"}


def bids(events: int, seed: int = 42) -> pa.Table:
    """The bids among the first `events` Nexmark events, in event order."""
    parts = []
    for chunk in nexmark.events(events, seed):
        _, struct = chunk.rows[nexmark.BID]
        parts.append(pa.Table.from_struct_array(struct))
    return pa.concat_tables(parts).combine_chunks()


def key_bytes(*columns: np.ndarray) -> pa.Array:
    """Each row's key as Flink's BinaryRowData of BIGINT fields (8 header bytes, then the longs)."""
    raw = np.zeros((len(columns[0]), 1 + len(columns)), dtype=np.int64)
    for i, column in enumerate(columns):
        raw[:, 1 + i] = column
    width = raw.shape[1] * 8
    offsets = np.arange(len(raw) + 1, dtype=np.int32) * width
    return pa.Array.from_buffers(pa.binary(), len(raw), [None, pa.py_buffer(offsets), pa.py_buffer(raw.tobytes())])


def batches(rows: pa.Table, key: tuple[str, ...], schema: pa.Schema, batch_rows: int,
            call: bytes = b"update") -> list[pa.RecordBatch]:
    """`rows` keyed by the BIGINT fields `key`, in batches of `batch_rows` as the operator sends them."""
    ids = [rows.column(k).to_numpy() for k in key]
    keys = key_bytes(*ids)
    key_groups = pa.array(np.bitwise_xor.reduce(ids) % 128, pa.int32())
    full = pa.table([keys, key_groups] + rows.columns, schema=schema)
    metadata = {b"accelerator.call": call, b"accelerator.state_budget": BUDGET}
    return [b.replace_schema_metadata(metadata)
            for b in full.to_batches(max_chunksize=batch_rows)]
