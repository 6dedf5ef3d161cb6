"""The row store the deduplication and Top-N keep their rows in: rows addressed by position, batch
rows past them, appended chunks made one again, and compaction's new positions."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.sidecar.row_store import RowStore

SCHEMA = pa.schema([pa.field("id", pa.int64()), pa.field("s", pa.string())])


def table(ids) -> pa.Table:
    return pa.table({"id": pa.array(ids, pa.int64()), "s": pa.array([f"r{i}" for i in ids])}, schema=SCHEMA)


def test_take_with_interleaves_store_and_batch_rows_in_the_order_asked():
    store = RowStore(SCHEMA)
    assert store.append(table([10, 11, 12])) == 0
    assert store.append(table([13])) == 3
    batch = table([20, 21])
    sources = np.array([5, 0, 4, 3, 5, 2])  # 4 and 5 are the batch's rows 0 and 1
    assert store.take_with(batch, sources).column("id").to_pylist() == [21, 10, 20, 13, 21, 12]
    assert store.take_with(batch, np.array([4])).column("s").to_pylist() == ["r20"]
    assert store.take_with(batch, np.array([1, 1])).column("id").to_pylist() == [11, 11]
    assert store.take_with(batch, np.zeros(0, dtype=np.int64)).num_rows == 0


def test_many_appends_are_made_one_chunk_again():
    store = RowStore(SCHEMA)
    for i in range(100):
        store.append(table([i]))
    assert len(store.chunks) <= 64
    assert store.take(np.array([0, 64, 99])).column("id").to_pylist() == [0, 64, 99]
    assert store.nbytes == sum(c.nbytes for c in store.chunks)


def test_rows_are_taken_from_each_chunk_in_the_order_asked():
    store = RowStore(SCHEMA)
    for first in range(0, 50, 5):
        store.append(table(list(range(first, first + 5))))
    assert len(store.chunks) == 10
    positions = np.array([49, 0, 7, 7, 23, 5, 48, 1])
    taken = store.take(positions)
    assert taken.column("id").to_pylist() == positions.tolist()
    assert taken.column("s").to_pylist() == [f"r{p}" for p in positions]
    assert store.take(positions, ["s"]).column_names == ["s"]
    assert store.take(np.zeros(0, dtype=np.int64)).num_rows == 0
    assert RowStore(SCHEMA).take(np.zeros(0, dtype=np.int64), ["id"]).column_names == ["id"]


def test_compaction_keeps_the_live_rows_and_says_where_each_went():
    store = RowStore(SCHEMA)
    store.append(table(list(range(3000))))
    assert store.needs_compacting(live_rows=100)
    assert not store.needs_compacting(live_rows=1500)
    live = np.array([2999, 7, 1000])
    moved = store.compact(live)
    assert store.num_rows == 3
    assert moved[2999] == 0 and moved[7] == 1 and moved[1000] == 2
    assert (np.delete(moved, live) == -1).all()
    assert store.take(moved[live]).column("id").to_pylist() == [2999, 7, 1000]
