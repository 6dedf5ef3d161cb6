"""The window aggregate's event-time timers, kept in the stage and fired in Flink's order.

Stock's `WindowAggOperator` registers one event-time timer per (key, window) and emits each
window when its timer fires, so its rows leave in its timer queue's order, which for equal
timestamps depends on the backend and on every registration and firing before
(docs/architecture.md, "Timer order"). The JVM operator says at start (`timers` call) which queue
its keyed backend's timer service is, and the stage keeps that queue itself, with no Flink timer:

- `heap` (`HashMapStateBackend`): `HeapTimerQueue`, keys as the state's key ids, namespaces as
  window ends; a checkpoint writes the timers in the order the heap backend writes its own, and a
  restore adds them in the order they come back, as Flink's heap restore does;
- `rocksdb` (`EmbeddedRocksDBStateBackend` with RocksDB timers): `RocksDBTimerQueue`, keys and
  namespaces as the bytes Flink's `TimerSerializer` writes (`RowDataSerializer`: the binary row's
  length, big-endian, then its bytes; `LongSerializer`: 8 big-endian bytes); a restore fills the
  key groups' sets and builds their heap once, before the queue is first used;
- `flink`: the operator keeps Flink's timers and the stage keeps none (`WindowTimers` is not made).

A timer is (key, window end, trigger): the stage's `timer` flag of the slot marks the same ones.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.timers import (HeapTimerQueue, RocksDBTimerQueue, binary_buffers, long_bytes, rocksdb_timer_arrays,
                                timer_arrays)

HEAP, ROCKSDB, FLINK = "heap", "rocksdb", "flink"
KINDS = (HEAP, ROCKSDB, FLINK)


class TimerOrderError(ValueError):
    """The stage's windows and its timer queue disagree on what fires or is registered."""


class WindowTimers:
    """One subtask's timer queue of the kind its backend has, over key groups
    `first_key_group`..`last_key_group`."""

    def __init__(self, kind: str, first_key_group: int, last_key_group: int):
        if kind not in (HEAP, ROCKSDB):
            raise ValueError(f"a window timer queue is {HEAP!r} or {ROCKSDB!r}, not {kind!r}")
        self.kind = kind
        self.queue = (HeapTimerQueue() if kind == HEAP
                      else RocksDBTimerQueue(first_key_group, last_key_group - first_key_group + 1))
        #: RocksDB timers restored and not yet put into the queue (it builds its heap once).
        self._restored: list[tuple] = []

    def __len__(self) -> int:
        self._build()
        return len(self.queue)

    def add(self, keys, key_groups: np.ndarray, ends: np.ndarray, triggers: np.ndarray) -> None:
        """Registers timers in order (Flink keeps one of equal timers). `keys` are the queue's keys
        of the timers: int64 key ids on the heap queue, the key bytes (a binary array) on RocksDB's."""
        if not len(ends):
            return
        self._build()
        key_groups = np.ascontiguousarray(key_groups, dtype=np.int64)
        ends = np.ascontiguousarray(ends, dtype=np.int64)
        triggers = np.ascontiguousarray(triggers, dtype=np.int64)
        if self.kind == HEAP:
            self.queue.add_batch(np.ascontiguousarray(keys, dtype=np.int64), key_groups, ends, triggers)
        else:
            self.queue.add_batch(*binary_buffers(serialized_keys(keys)), key_groups, *_namespace_buffers(ends),
                                 triggers)

    def fire(self, watermark: int, step: int, follow_keys, follow_ends: np.ndarray) -> tuple[pa.Array, np.ndarray]:
        """Fires every timer at or before `watermark` in Flink's order; the timer of each
        (key, window end) of the follow pairs registers its key's timer `step` later as it fires
        (stock's next window). The fired timers' keys (as `add` takes them) and window ends, in
        firing order."""
        self._build()
        follow_ends = np.ascontiguousarray(follow_ends, dtype=np.int64)
        if self.kind == HEAP:
            buffers = self.queue.fire_batch(watermark, step, np.ascontiguousarray(follow_keys, dtype=np.int64),
                                            follow_ends)
            key_ids, _, ends, _ = timer_arrays(buffers)
            return pa.array(key_ids, pa.int64()), ends
        buffers = self.queue.fire_batch(watermark, step, *binary_buffers(serialized_keys(follow_keys)),
                                        *_namespace_buffers(follow_ends))
        keys, _, namespaces, _ = rocksdb_timer_arrays(buffers)
        return _key_bytes(keys), _ends(namespaces)

    def snapshot_order(self) -> tuple[np.ndarray, np.ndarray]:
        """The heap queue's timers as its backend's checkpoint writes them (by key group, within
        one the heap array's order): their key ids and window ends."""
        key_ids, _, ends, _ = timer_arrays(self.queue.snapshot())
        return key_ids, ends

    def restore(self, keys, key_groups: np.ndarray, ends: np.ndarray, triggers: np.ndarray) -> None:
        """Takes restored timers (keys as `add` takes them) in the order the restore hands them over:
        the heap queue adds them in that order, as the heap backend's restore does; the RocksDB queue
        puts them into its key groups' sets when it is next used."""
        if self.kind == HEAP:
            self.add(keys, key_groups, ends, triggers)
            return
        if len(self.queue):
            raise TimerOrderError("restored timers arrived after the RocksDB timer queue was used; a restore comes"
                                  " before any other call")
        serialized = serialized_keys(keys).to_pylist()
        self._restored.extend(zip(serialized, np.asarray(key_groups).tolist(),
                                  (long_bytes(e) for e in np.asarray(ends).tolist()), np.asarray(triggers).tolist()))

    def _build(self) -> None:
        if self._restored:
            restored, self._restored = self._restored, []
            self.queue.restore(restored)


def serialized_keys(keys: pa.Array) -> pa.Array:
    """`RowDataSerializer`'s bytes of binary rows: the row's length (int32, big-endian), then the row."""
    count = len(keys)
    offsets, data = binary_buffers(keys.cast(pa.binary()))
    lengths = np.diff(offsets)
    written = (offsets - offsets[0] + 4 * np.arange(count + 1)).astype(np.int32)
    out = np.empty(int(written[-1]), dtype=np.uint8)
    out[written[:-1, None] + np.arange(4)] = lengths.astype(">i4").view(np.uint8).reshape(-1, 4)
    rows = np.repeat(np.arange(count), lengths)
    out[np.arange(len(rows)) + 4 * (rows + 1)] = data[offsets[0]:offsets[-1]]
    return pa.Array.from_buffers(pa.binary(), count, [None, pa.py_buffer(written), pa.py_buffer(out)])


def _key_bytes(serialized: pa.Array) -> pa.Array:
    """The binary rows of `serialized_keys`' bytes."""
    return pc.binary_slice(serialized, 4, 2 ** 31 - 1) if len(serialized) else pa.array([], pa.binary())


def _namespace_buffers(ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, data) of window ends as `LongSerializer` writes them: 8 big-endian bytes each."""
    offsets = np.arange(0, 8 * len(ends) + 1, 8, dtype=np.int32)
    data = np.ascontiguousarray(ends, dtype=">i8").view(np.uint8)
    return offsets, data if len(data) else np.empty(0, np.uint8)


def _ends(namespaces: pa.Array) -> np.ndarray:
    """Window ends of `LongSerializer`'s bytes."""
    if not len(namespaces):
        return np.zeros(0, dtype=np.int64)
    _, _, data = namespaces.buffers()
    return np.frombuffer(data, dtype=">i8", count=len(namespaces)).astype(np.int64)


def firing_ranks(fired_keys: pa.Array, fired_ends: np.ndarray, queue_keys: pa.Array,
                 queue_ends: np.ndarray) -> np.ndarray:
    """Each fired window's place in the queue's firing order; fails when the windows the stage
    fired and the timers the queue fired are not the same (key, end) pairs."""
    if len(fired_ends) != len(queue_ends):
        raise TimerOrderError(f"the stage fired {len(fired_ends)} windows but its timer queue {len(queue_ends)} timers;"
                              f" the window state and the timers disagree")
    ours = _sorted(fired_keys, fired_ends)
    theirs = _sorted(queue_keys, queue_ends)
    if not (np.array_equal(fired_ends[ours], queue_ends[theirs])
            and fired_keys.take(pa.array(ours)).equals(queue_keys.take(pa.array(theirs)))):
        raise TimerOrderError("the windows the stage fired are not the timers its timer queue fired; the window"
                              " state and the timers disagree")
    ranks = np.empty(len(ours), dtype=np.int64)
    ranks[ours] = theirs
    return ranks


def _sorted(keys: pa.Array, ends: np.ndarray) -> np.ndarray:
    table = pa.table({"end": pa.array(ends, pa.int64()), "key": keys})
    return pc.sort_indices(table, sort_keys=[("end", "ascending"), ("key", "ascending")]).to_numpy()
