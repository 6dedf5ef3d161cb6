"""The timer queues replay logs recorded from Flink 2.2.1's own timer service (written by the shim's
`TimerOrderTest`, which replays its fresh recordings the same way): every watermark fires the same
timers in the same order, and the queues hold as many timers as Flink's after every operation. The
logs tell the model from simpler orders: insertion order among equal timestamps, or a sort by
(timestamp, key, namespace), each fail on them."""

from __future__ import annotations

import bisect
import gzip
import itertools
import json
from pathlib import Path

import pytest

from accelerator.timers.replay import replay

LOG = Path(__file__).with_name("flink_timer_orders.jsonl.gz")


def scenarios() -> list[dict]:
    with gzip.open(LOG, "rt", encoding="utf-8") as log:
        return [json.loads(line) for line in log if line.strip()]


@pytest.mark.parametrize("scenario", scenarios(), ids=lambda s: s["name"])
def test_the_model_fires_as_flink(scenario):
    assert replay(scenario) is None


class _SortedQueue:
    """A queue that pops by a sort key: what the model would be without Flink's heap mechanics."""

    def __init__(self):
        self.entries: list[tuple] = []
        self.present: dict[tuple, tuple] = {}

    def __len__(self):
        return len(self.entries)

    def peek(self):
        return self.entries[0][-1] if self.entries else None

    def poll(self):
        entry = self.entries.pop(0)
        del self.present[entry[-1][:1] + entry[-1][2:]]
        return entry[-1]


class _NaiveModel:
    """`replay`'s model interface over `_SortedQueue`, ordered by `order(timer, sequence)`."""

    def __init__(self, order):
        self.queue = _SortedQueue()
        self.order = order
        self.sequence = itertools.count()

    def add(self, key, key_group, namespace, timestamp):
        identity = (key, namespace, timestamp)
        if identity in self.queue.present:
            return False
        timer = (key, key_group, namespace, timestamp)
        entry = self.order(timer, next(self.sequence)) + (timer,)
        self.queue.present[identity] = entry
        bisect.insort(self.queue.entries, entry)
        return True

    def delete(self, key, key_group, namespace, timestamp):
        entry = self.queue.present.pop((key, namespace, timestamp), None)
        if entry is not None:
            self.queue.entries.remove(entry)

    def identity(self, timer):
        return timer

    def restore(self):
        pass


@pytest.mark.parametrize("order", [
    pytest.param(lambda timer, sequence: (timer[3], sequence), id="insertion order among equal timestamps"),
    pytest.param(lambda timer, sequence: (timer[3], timer[0], timer[2]), id="sorted by timestamp, key, namespace"),
])
def test_simpler_orders_differ_from_flink(order):
    single = [s for s in scenarios() if not any(op[0] == "rescale" for op in s["ops"])]
    differing = [s["name"] for s in single if replay(s, lambda *_range: _NaiveModel(order)) is not None]
    assert len(differing) >= len(single) // 2, differing
