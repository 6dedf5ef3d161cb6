"""Replays operation logs recorded from Flink's own timer service on the timer queues and names
the first place each differs: the proof that `HeapTimerQueue` and `RocksDBTimerQueue` fire in
Flink's order.

A log is JSON lines, one scenario each: {"name", "backend": "heap" | "rocksdb" |
"rocksdb-heap-timers", "keyGroups",
"ops"}, keys and namespaces BIGINTs (their bytes, for RocksDB, `LongSerializer`'s: 8 big-endian
bytes). Each op is a list:

- ["add", key, keyGroup, namespace, timestamp, timers] and ["delete", ...]: the timer registered or
  deleted under its key, then how many timers Flink held (-1: not recorded);
- ["watermark", watermark, fired, timers]: `advanceWatermark`; `fired` lists, in Flink's firing
  order, [key, keyGroup, namespace, timestamp, actions], `actions` the ["add" | "delete", key,
  keyGroup, namespace, timestamp] its `onEventTime` did;
- ["restore", timers]: a checkpoint taken, the operator restored from it;
- ["on", subtask, firstKeyGroup, keyGroups, timers]: the following operations are on that subtask's
  queue, which holds those key groups (a log without it has one subtask holding them all);
- ["rescale", old parallelism, new parallelism, timers]: every subtask's checkpoint taken, the
  subtasks of the new parallelism restored from them, each from its key groups' part.

`python -m accelerator.timers.replay LOG...` prints each divergence and exits 1 if any."""

from __future__ import annotations

import json
import struct
import sys
from typing import Callable, Iterable


from accelerator._native import HeapTimerQueue, RocksDBTimerQueue
from accelerator.timers.firing import fire, long_bytes, restore_heap, timer_arrays


class HeapModel:
    """`HeapTimerQueue` driven by a log's BIGINT keys and namespaces."""

    def __init__(self, first_key_group: int, key_groups: int):
        self.queue = HeapTimerQueue()

    @classmethod
    def restored(cls, first_key_group: int, key_groups: int, old: list[HeapModel]) -> HeapModel:
        """A subtask restored from the old subtasks' checkpoints (in subtask order), its key groups only."""
        model = cls(first_key_group, key_groups)
        parts = []
        for snapshot in (timer_arrays(m.queue.snapshot()) for m in old):
            mine = (snapshot[1] >= first_key_group) & (snapshot[1] < first_key_group + key_groups)
            parts.append(tuple(array[mine] for array in snapshot))
        model.queue = restore_heap(parts)
        return model

    def add(self, key, key_group, namespace, timestamp) -> bool:
        return self.queue.add(key, key_group, namespace, timestamp)

    def delete(self, key, key_group, namespace, timestamp) -> bool:
        return self.queue.remove(key, namespace, timestamp)

    def identity(self, timer) -> tuple:
        key, key_group, namespace, timestamp = timer
        return key, key_group, namespace, timestamp

    def restore(self) -> None:
        self.queue = restore_heap([timer_arrays(self.queue.snapshot())])


class RocksDBModel:
    """`RocksDBTimerQueue` over the key groups of one subtask."""

    def __init__(self, first_key_group: int, key_groups: int):
        self.first_key_group = first_key_group
        self.key_groups = key_groups
        self.queue = RocksDBTimerQueue(first_key_group, key_groups)

    @classmethod
    def restored(cls, first_key_group: int, key_groups: int, old: list[RocksDBModel]) -> RocksDBModel:
        """A subtask restored from the old subtasks' checkpoints, its key groups only."""
        model = cls(first_key_group, key_groups)
        model.queue.restore([timer for m in old for timer in m.queue.snapshot()
                             if first_key_group <= timer[1] < first_key_group + key_groups])
        return model

    def add(self, key, key_group, namespace, timestamp) -> bool:
        return self.queue.add(long_bytes(key), key_group, long_bytes(namespace), timestamp)

    def delete(self, key, key_group, namespace, timestamp) -> bool:
        return self.queue.remove(long_bytes(key), key_group, long_bytes(namespace), timestamp)

    def identity(self, timer) -> tuple:
        key, key_group, namespace, timestamp = timer
        return struct.unpack(">q", key)[0], key_group, struct.unpack(">q", namespace)[0], timestamp

    def restore(self) -> None:
        snapshot = self.queue.snapshot()
        self.queue = RocksDBTimerQueue(self.first_key_group, self.key_groups)
        self.queue.restore(snapshot)


#: RocksDB with heap timers keeps them in the heap backends' queue (its logs hold no restore).
MODELS: dict[str, Callable[[int, int], object]] = {"heap": HeapModel, "rocksdb": RocksDBModel,
                                              "rocksdb-heap-timers": HeapModel}


def replay(scenario: dict, model_factory: Callable[[int, int], object] | None = None) -> str | None:
    """Replays one scenario on its backend's model (or `model_factory`'s); the first divergence
    from Flink, or None."""
    factory = model_factory or MODELS[scenario["backend"]]
    models: dict[int, object] = {}  # by subtask
    rescaled: list = []  # the subtasks' models before a rescale, in subtask order
    model = None
    name = scenario["name"]
    for step, op in enumerate(scenario["ops"]):
        kind = op[0]
        if model is None and kind not in ("on", "rescale"):
            model = models[0] = factory(0, scenario["keyGroups"])
        if kind == "on":
            subtask, first_key_group, key_groups = op[1:4]
            if subtask not in models:
                models[subtask] = (factory.restored(first_key_group, key_groups, rescaled) if rescaled
                                   else factory(first_key_group, key_groups))
            model = models[subtask]
        elif kind == "rescale":
            rescaled = [models[subtask] for subtask in sorted(models)]
            models, model = {}, None
            continue
        elif kind in ("add", "delete"):
            getattr(model, kind)(*op[1:5])
        elif kind == "watermark":
            watermark, expected = op[1], op[2]
            fired: list[tuple] = []

            def on_fire(timer):
                fired.append(model.identity(timer))
                if len(fired) <= len(expected) and tuple(expected[len(fired) - 1][:4]) == fired[-1]:
                    for action in expected[len(fired) - 1][4]:
                        getattr(model, action[0])(*action[1:5])

            fire(model.queue, watermark, on_fire)
            want = [tuple(timer[:4]) for timer in expected]
            if fired != want:
                at = next((i for i, (a, b) in enumerate(zip(fired, want)) if a != b), min(len(fired), len(want)))
                return (f"{name}: op {step} (watermark {watermark}): Flink fired {len(want)} timers, the model "
                        f"{len(fired)}; first difference at firing {at}: Flink "
                        f"{want[at] if at < len(want) else 'nothing'}, model {fired[at] if at < len(fired) else 'nothing'}"
                        " (key, key group, namespace, timestamp)")
        elif kind == "restore":
            model.restore()
        else:
            return f"{name}: op {step}: unknown operation {kind!r}"
        timers = op[-1]
        if timers >= 0 and len(model.queue) != timers:
            return f"{name}: op {step} ({kind}): Flink held {timers} timers after it, the model {len(model.queue)}"
    return None


def read_log(path: str) -> Iterable[dict]:
    """The scenarios of a log file."""
    with open(path, encoding="utf-8") as log:
        for line in log:
            if line.strip():
                yield json.loads(line)


def main(paths: list[str]) -> int:
    scenarios = failures = 0
    for path in paths:
        for scenario in read_log(path):
            scenarios += 1
            divergence = replay(scenario)
            if divergence:
                failures += 1
                print(divergence)
    print(f"{scenarios} scenarios replayed, {failures} differ from Flink")
    return 1 if failures or not scenarios else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
