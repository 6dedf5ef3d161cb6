"""Firing and restoring the timer queues as Flink's timer service does."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator._native import HeapTimerQueue


def fire(queue, watermark: int, on_fire: Callable[[tuple], None]) -> int:
    """Fires every timer at or before `watermark` as `InternalTimerServiceImpl.advanceWatermark`:
    peek the head, stop past the watermark, poll it, call `on_fire` with it. A timer `on_fire`
    registers at or before the watermark fires in the same pass, at its place in the queue; one it
    deletes never fires. Returns how many fired. Without a callback, `queue.fire_batch` does the
    same in one native call."""
    fired = 0
    while (head := queue.peek()) is not None and head[3] <= watermark:
        queue.poll()
        on_fire(head)
        fired += 1
    return fired


def long_bytes(value: int) -> bytes:
    """A BIGINT key or namespace as Flink's `LongSerializer` writes it: 8 big-endian bytes."""
    return int(value).to_bytes(8, "big", signed=True)


def timer_arrays(buffers) -> tuple[np.ndarray, ...]:
    """(keys, key groups, namespaces, timestamps) int64 arrays of `HeapTimerQueue.fire_batch`'s or
    `snapshot`'s buffers."""
    arrays = (np.frombuffer(buffer, dtype=np.int64) for buffer in buffers)
    # An empty buffer's address is 1, which numpy calls aligned and the queues' int64 reads refuse.
    return tuple(array if len(array) else np.empty(0, np.int64) for array in arrays)


def binary_buffers(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(int32 offsets, data) of a binary array without nulls, for `RocksDBTimerQueue.add_batch`
    and `remove_batch`: keys and namespaces as their serializers' bytes."""
    if values.null_count:
        raise ValueError(f"timer keys and namespaces are never NULL; {values.null_count} of {len(values)} are")
    _, offsets, data = values.buffers()
    offsets = np.frombuffer(offsets, dtype=np.int32)[values.offset:values.offset + len(values) + 1]
    return offsets, np.frombuffer(data, dtype=np.uint8) if data is not None else np.empty(0, np.uint8)


def rocksdb_timer_arrays(buffers) -> tuple[pa.Array, np.ndarray, pa.Array, np.ndarray]:
    """(keys, key groups, namespaces, timestamps) of `RocksDBTimerQueue.fire_batch`'s buffers: keys
    and namespaces as binary arrays of their bytes, key groups and timestamps as int64 arrays."""
    key_offsets, key_data, key_groups, namespace_offsets, namespace_data, timestamps = buffers
    key_groups, timestamps = timer_arrays((key_groups, timestamps))
    count = len(key_groups)
    keys = pa.Array.from_buffers(pa.binary(), count, [None, pa.py_buffer(key_offsets), pa.py_buffer(key_data)])
    namespaces = pa.Array.from_buffers(pa.binary(), count, [None, pa.py_buffer(namespace_offsets),
                                                            pa.py_buffer(namespace_data)])
    return keys, key_groups, namespaces, timestamps


def restore_heap(snapshots) -> HeapTimerQueue:
    """The heap queue a heap backend restores from checkpoints: a new queue, every key group's
    timers added in the order its checkpoint wrote them (`HeapTimerQueue.snapshot`). `snapshots`
    lists each restored state handle's snapshot arrays, in the order Flink reads the handles; a
    restore at another parallelism passes only the key groups of its own range."""
    queue = HeapTimerQueue()
    for keys, key_groups, namespaces, timestamps in snapshots:
        queue.add_batch(*(np.ascontiguousarray(a, dtype=np.int64) for a in (keys, key_groups, namespaces, timestamps)))
    return queue
