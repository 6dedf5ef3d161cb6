"""CPU time of the timer queues (`accelerator.timers`) per timer, in the shape of Nexmark q5's
window aggregate: `--keys` keys each register a timer per window (namespace the window's end,
timestamp end - 1; every key's rows in a shuffled order, `--rows-per-key` registrations per key
and window, all but the first a duplicate), `--windows` windows, a watermark passing each window
end fires its timers in one `fire_batch`. Reports the registrations' and the firings' CPU per
timer, for the heap queue (int64 keys) and, with `--rocksdb`, RocksDB's (8-byte keys), both through
their batch entry points.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/timer_order.py [--keys 500000] [--windows 5]
        [--rows-per-key 2] [--batch 5000] [--rocksdb]
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np

from accelerator.timers import HeapTimerQueue, RocksDBTimerQueue
from stage_bench import arguments

KEY_GROUPS = 128


class Cpu:
    """Process CPU seconds summed over the blocks it times."""

    def __init__(self):
        self.seconds = 0.0

    @contextmanager
    def timing(self):
        start = time.process_time()
        try:
            yield
        finally:
            self.seconds += time.process_time() - start


def windows_rows(keys: int, windows: int, rows_per_key: int, seed: int = 7):
    """Per window: (keys, key groups, namespaces, timestamps) of its registrations, shuffled."""
    rng = np.random.default_rng(seed)
    for window in range(windows):
        end = 10_000 * (window + 1)
        key = rng.permutation(np.repeat(np.arange(keys, dtype=np.int64), rows_per_key))
        group = (key * 0x9E3779B1 >> 7) % KEY_GROUPS
        yield end, key, group, np.full(len(key), end, np.int64), np.full(len(key), end - 1, np.int64)


def heap(args) -> None:
    queue = HeapTimerQueue()
    adds, fires, fired, registered = Cpu(), Cpu(), 0, 0
    for end, key, group, namespace, timestamp in windows_rows(args.keys, args.windows, args.rows_per_key):
        with adds.timing():
            for start in range(0, len(key), args.batch):
                part = slice(start, start + args.batch)
                queue.add_batch(key[part], group[part], namespace[part], timestamp[part])
        registered += len(key)
        with fires.timing():
            fired += len(memoryview(queue.fire_batch(end - 1)[0])) // 8
    report("heap", adds, fires, registered, fired)


def rocksdb(args) -> None:
    queue = RocksDBTimerQueue(0, KEY_GROUPS)
    adds, fires, fired, registered = Cpu(), Cpu(), 0, 0
    for end, key, group, namespace, timestamp in windows_rows(args.keys, args.windows, args.rows_per_key):
        # BIGINT keys and namespaces as LongSerializer writes them: 8 big-endian bytes.
        offsets = np.arange(len(key) + 1, dtype=np.int32) * 8
        key_data = np.frombuffer(key.astype(">i8").tobytes(), np.uint8)
        namespace_data = np.frombuffer(namespace.astype(">i8").tobytes(), np.uint8)
        with adds.timing():
            for start in range(0, len(key), args.batch):
                stop = min(start + args.batch, len(key))
                queue.add_batch(offsets[start:stop + 1], key_data, group[start:stop], offsets[start:stop + 1],
                                namespace_data, timestamp[start:stop])
        registered += len(key)
        with fires.timing():
            fired += len(np.frombuffer(queue.fire_batch(end - 1)[2], np.int64))
    report("rocksdb", adds, fires, registered, fired)


def report(queue: str, adds: Cpu, fires: Cpu, registered: int, fired: int) -> None:
    print(f"{queue}: {registered} registrations ({fired} timers) {adds.seconds:.2f} CPU-s, "
          f"{adds.seconds / registered * 1e6:.3f} µs each; {fired} fired {fires.seconds:.2f} CPU-s, "
          f"{fires.seconds / fired * 1e6:.3f} µs each; per timer (its registrations and its firing) "
          f"{(adds.seconds + fires.seconds) / fired * 1e6:.3f} µs")


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--keys", type=int, default=500_000)
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--rows-per-key", type=int, default=2)
    parser.add_argument("--batch", type=int, default=5000)
    parser.add_argument("--rocksdb", action="store_true")
    args = parser.parse_args()
    heap(args)
    if args.rocksdb:
        rocksdb(args)


if __name__ == "__main__":
    main()
