"""The benchmark's input: the Nexmark generator's bids as Arrow rows, and seed messages of them in
each format from the Nexmark dataset cache (`accelerator.bench.dataset`, table `bid`).

Messages travel between processes as files of length-prefixed messages (4-byte big-endian length,
then the bytes), which the Java side reads with a DataInputStream.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pyarrow as pa

from accelerator.bench import dataset, nexmark
from accelerator.formats import types

FORMATS = ("json", "avro")
#: The flat `bid` table's physical row as the Kafka connector hands it to a format: NOT NULL.
BID_ROW = types.DataType("ROW", nullable=False, fields=nexmark.ROW_TYPE.fields[nexmark.BID + 1].type.fields)
_BIDS_PER_EPOCH = nexmark.BID_PROPORTION
_EVENTS_PER_EPOCH = nexmark.TOTAL_PROPORTION


def events_for(rows: int) -> int:
    """Events whose bids number at least `rows` (46 of every 50 events are bids)."""
    return -(-rows // _BIDS_PER_EPOCH) * _EVENTS_PER_EPOCH


def bid_rows(rows: int, seed: int = 42) -> pa.RecordBatch:
    """The first `rows` bids of the Nexmark stream, with the bid table's Arrow schema."""
    parts = [chunk.rows[nexmark.BID][1] for chunk in nexmark.events(events_for(rows), seed)]
    bids = pa.concat_arrays(parts).slice(0, rows)
    return pa.RecordBatch.from_struct_array(bids).cast(types.to_arrow_schema(BID_ROW))


def seed_messages(rows: int, fmt: str, seed: int = 42, out=print) -> pa.BinaryArray:
    """The same bids as the Nexmark benchmark's `bid` topic holds them in `fmt` (cached)."""
    path = dataset.ensure(events_for(rows), fmt, seed, out=out, table="bid")
    values = pa.concat_arrays(list(dataset.batches(path))).slice(0, rows)
    if len(values) != rows:
        raise RuntimeError(f"{path} holds {len(values)} bid messages, expected {rows}; delete it to regenerate")
    return values


def write_messages(path: Path, values: pa.Array) -> None:
    with path.open("wb") as f:
        for value in values.to_pylist():
            f.write(struct.pack(">i", len(value)))
            f.write(value)


def read_messages(path: Path) -> pa.BinaryArray:
    data = path.read_bytes()
    prefixes, at = [], 0
    while at < len(data):
        prefixes.append(at)
        at += 4 + struct.unpack_from(">i", data, at)[0]
    if at != len(data):
        raise ValueError(f"{path}: the last message is truncated (the writer stopped early?)")
    # The messages' bytes are the file without its length prefixes.
    body = np.ones(len(data), dtype=bool)
    prefix = np.asarray(prefixes, dtype=np.int64)
    for k in range(4):
        body[prefix + k] = False
    offsets = np.append(prefix - 4 * np.arange(len(prefix)), len(data) - 4 * len(prefix)).astype(np.int32)
    return pa.BinaryArray.from_buffers(pa.binary(), len(prefix), [None, pa.py_buffer(offsets),
                                                                 pa.py_buffer(np.frombuffer(data, np.uint8)[body])])
