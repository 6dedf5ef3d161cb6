"""Firing and restoring the timer queues as Flink's timer service does."""

from __future__ import annotations

from typing import Callable

import numpy as np

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


def timer_arrays(buffers) -> tuple[np.ndarray, ...]:
    """(keys, key groups, namespaces, timestamps) int64 arrays of `HeapTimerQueue.fire_batch`'s or
    `snapshot`'s buffers."""
    arrays = (np.frombuffer(buffer, dtype=np.int64) for buffer in buffers)
    # An empty buffer's address is 1, which numpy calls aligned and the queues' int64 reads refuse.
    return tuple(array if len(array) else np.empty(0, np.int64) for array in arrays)


def restore_heap(snapshots) -> HeapTimerQueue:
    """The heap queue a heap backend restores from checkpoints: a new queue, every key group's
    timers added in the order its checkpoint wrote them (`HeapTimerQueue.snapshot`). `snapshots`
    lists each restored state handle's snapshot arrays, in the order Flink reads the handles; a
    restore at another parallelism passes only the key groups of its own range."""
    queue = HeapTimerQueue()
    for keys, key_groups, namespaces, timestamps in snapshots:
        queue.add_batch(*(np.ascontiguousarray(a, dtype=np.int64) for a in (keys, key_groups, namespaces, timestamps)))
    return queue
