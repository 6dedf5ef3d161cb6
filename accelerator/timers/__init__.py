"""Flink's event-time timer order outside Flink's timer service.

An accelerated operator that keeps one Flink timer per (key, window) only to emit in stock's order
pays Flink's timer service per timer (registration, heap sifts, deduplication hashing). The queues
here fire a batch of timers in exactly the order Flink's would, so an operator can emit a fired
batch without Flink timers (docs/architecture.md, "Timer order"):

- `HeapTimerQueue`: the heap backends' queue (HashMapStateBackend, and RocksDB with heap timers),
  keys and namespaces as the caller's int64 numbers;
- `RocksDBTimerQueue`: RocksDB's timer queue, keys and namespaces as their serializers' bytes;
- `fire`: `InternalTimerServiceImpl.advanceWatermark` over either, with a callback that may
  register and delete timers while firing;
- `restore_heap`: the heap queue a restore of a heap backend's checkpoint rebuilds;
- `timer_arrays`, `rocksdb_timer_arrays`, `binary_buffers`: the batch entry points' arrays;
- `long_bytes`: a BIGINT key or namespace as RocksDB's queue holds it.

Both queues are native (`native/src/timer_order.rs`); `replay` checks them against operation logs
recorded from Flink's own timer service (`TimerOrderTest` in the shim's tests)."""

from accelerator._native import HeapTimerQueue, RocksDBTimerQueue
from accelerator.timers.firing import (binary_buffers, fire, long_bytes, restore_heap, rocksdb_timer_arrays,
                                       timer_arrays)

__all__ = ["HeapTimerQueue", "RocksDBTimerQueue", "binary_buffers", "fire", "long_bytes", "restore_heap",
           "rocksdb_timer_arrays", "timer_arrays"]
