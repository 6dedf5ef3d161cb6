"""The timer queues' operations on small cases whose Flink order is known from its heap's rules
(`HeapPriorityQueue`: equal timestamps leave in heap order, not insertion order) and RocksDB's
(byte order within a key group); the proof of the order on random and q5-like scripts is the replay
of Flink-recorded logs, `test_flink_recorded_orders.py` and the shim's `TimerOrderTest`."""

from __future__ import annotations

import struct

import numpy as np
import pyarrow as pa
import pytest

from accelerator.timers import (HeapTimerQueue, RocksDBTimerQueue, binary_buffers, fire, restore_heap,
                                rocksdb_timer_arrays, timer_arrays)


def _i64(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def test_add_says_whether_the_timer_is_new_and_remove_whether_it_was_there():
    queue = HeapTimerQueue()
    assert queue.add(1, 0, 7, 100)
    assert not queue.add(1, 0, 7, 100)
    assert queue.add(1, 0, 8, 100) and queue.add(2, 0, 7, 100) and queue.add(1, 0, 7, 101)
    assert len(queue) == 4
    assert queue.remove(1, 7, 100) and not queue.remove(1, 7, 100)
    assert len(queue) == 3


def test_equal_timestamps_leave_in_heap_order_not_insertion_order():
    # Keys 1..5 at one timestamp: the first poll moves the last element (key 5) to the root and it
    # stays there (no child is strictly less), so key 5 fires second, as Flink's heap does.
    queue = HeapTimerQueue()
    for key in range(1, 6):
        queue.add(key, 0, 0, 10)
    order = [queue.poll()[0] for _ in range(5)]
    assert order == [1, 5, 4, 3, 2]
    assert queue.poll() is None and queue.peek() is None


def test_a_timer_registered_while_firing_at_or_before_the_watermark_fires_in_the_same_pass():
    queue = HeapTimerQueue()
    queue.add(1, 0, 0, 5)
    queue.add(2, 0, 0, 9)
    fired = []

    def on_fire(timer):
        fired.append(timer)
        if timer[0] == 1:
            queue.add(3, 0, 0, 4)   # before the one firing: next
            queue.add(4, 0, 0, 11)  # past the watermark: stays
            queue.remove(2, 0, 9)   # deleted before its turn: never fires

    assert fire(queue, 10, on_fire) == 2
    assert fired == [(1, 0, 0, 5), (3, 0, 0, 4)]
    assert queue.peek() == (4, 0, 0, 11)


def test_fire_batch_fires_as_fire_without_a_callback():
    rng = np.random.default_rng(3)
    keys, groups, namespaces, times = (_i64(rng.integers(0, n, 5000)) for n in (300, 128, 3, 40))
    groups = keys % 128
    batch, single = HeapTimerQueue(), HeapTimerQueue()
    new = np.frombuffer(batch.add_batch(keys, groups, namespaces, times), dtype=np.uint8)
    assert list(new) == [single.add(*t) for t in zip(keys.tolist(), groups.tolist(), namespaces.tolist(),
                                                      times.tolist())]
    fired = []
    fire(single, 25, fired.append)
    got = timer_arrays(batch.fire_batch(25))
    assert list(zip(*(a.tolist() for a in got))) == fired
    assert len(batch) == len(single) > 0


def test_a_heap_restore_adds_the_snapshot_by_key_group_in_heap_array_order():
    queue = HeapTimerQueue()
    for key, group in [(1, 2), (2, 1), (3, 2), (4, 1), (5, 0)]:
        queue.add(key, group, 0, 10)
    keys, groups, _, _ = timer_arrays(queue.snapshot())
    # The heap array is keys 1..5 (equal timestamps never move); partitioned by key group, stably.
    assert keys.tolist() == [5, 2, 4, 1, 3] and groups.tolist() == [0, 1, 1, 2, 2]
    restored = restore_heap([timer_arrays(queue.snapshot())])
    assert [restored.poll()[0] for _ in range(5)] == [5, 3, 1, 4, 2]


def test_rocksdb_orders_a_key_group_by_the_timers_bytes_and_key_groups_by_their_heads():
    queue = RocksDBTimerQueue(0, 4)
    b = lambda v: struct.pack(">q", v)  # noqa: E731
    # Key group 2 first, then 1: equal heads keep the key groups' heap order (2 became the root).
    assert queue.add(b(9), 2, b(0), 10) and queue.add(b(-1), 1, b(0), 10)
    assert queue.add(b(3), 2, b(0), 10) and not queue.add(b(3), 2, b(0), 10)
    queue.add(b(1), 1, b(0), 10)
    # Within a key group by bytes: -1's big-endian bytes sort after positive keys'.
    keys, groups, namespaces, timestamps = rocksdb_timer_arrays(queue.fire_batch(10))
    order = [(struct.unpack(">q", k)[0], g) for k, g in zip(keys.to_pylist(), groups.tolist())]
    assert order == [(3, 2), (9, 2), (1, 1), (-1, 1)]
    assert namespaces.to_pylist() == [b(0)] * 4 and timestamps.tolist() == [10] * 4
    assert len(rocksdb_timer_arrays(queue.fire_batch(10))[0]) == 0


def test_rocksdb_batches_register_delete_and_fire_as_single_calls():
    rng = np.random.default_rng(5)
    count = 3000
    keys = pa.array([bytes(rng.integers(0, 256, rng.integers(1, 4)).astype(np.uint8)) for _ in range(count)],
                    pa.binary())
    namespaces = pa.array([bytes([n]) for n in rng.integers(0, 3, count)], pa.binary())
    groups = _i64(rng.integers(0, 16, count))
    times = _i64(rng.integers(0, 30, count))
    batch, single = RocksDBTimerQueue(0, 16), RocksDBTimerQueue(0, 16)
    added = np.frombuffer(batch.add_batch(*binary_buffers(keys[100:]), groups[100:],
                                          *binary_buffers(namespaces[100:]), times[100:]), np.uint8)
    rows = list(zip(keys.to_pylist(), groups.tolist(), namespaces.to_pylist(), times.tolist()))
    assert added.tolist() == [single.add(*row) for row in rows[100:]]
    gone = np.frombuffer(batch.remove_batch(*binary_buffers(keys[:200]), groups[:200],
                                            *binary_buffers(namespaces[:200]), times[:200]), np.uint8)
    assert gone.tolist() == [single.remove(*row) for row in rows[:200]]
    fired = []
    fire(single, 20, fired.append)
    keys_fired, groups_fired, namespaces_fired, times_fired = rocksdb_timer_arrays(batch.fire_batch(20))
    assert list(zip(keys_fired.to_pylist(), groups_fired.tolist(), namespaces_fired.to_pylist(),
                    times_fired.tolist())) == fired
    assert len(batch) == len(single) > 0


def test_rocksdb_refuses_a_key_group_outside_its_range():
    queue = RocksDBTimerQueue(64, 64)
    with pytest.raises(ValueError, match="key group 3 is outside this queue's key groups 64..128"):
        queue.add(b"k", 3, b"n", 1)
