"""The window aggregate's timers in the stage's own queue (`timers` call): windows leave in the
order the keyed backend's timer service would fire their timers, which for equal timestamps is
neither the keys' order nor their arrival order (docs/architecture.md "Timer order"; the order
against stock Flink's operator itself is `AcceleratedWindowAggOperatorTest` in the shim's tests)."""

from __future__ import annotations

import pytest
from window_agg_client import CallFailed, descriptor

COUNT = [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}]


def keys_fired(stage, watermark: int) -> list[tuple[str, int]]:
    return [(w["$key"], w["$window_end"]) for w in stage.fire(watermark)]


def rows(keys: list[str], key_groups: dict[str, int], t: int = 1_000) -> list[dict]:
    return [{"$key": k, "$key_group": key_groups.get(k, 0), "$time": t} for k in keys]


def test_heap_timers_of_one_timestamp_fire_in_the_heap_order_not_the_arrival_order(sidecar):
    # Flink's heap queue: five timers of one timestamp, added in order, fire 1, 5, 4, 3, 2.
    stage = sidecar.open(descriptor(COUNT))
    stage.timers("heap")
    stage.update(rows(["k1", "k2", "k3", "k4", "k5"], {}))
    assert stage.flush() == []  # the stage registered them itself
    assert keys_fired(stage, 9_999) == [("k1", 10_000), ("k5", 10_000), ("k4", 10_000), ("k3", 10_000),
                                        ("k2", 10_000)]


def test_without_a_queue_the_flush_hands_the_pairs_to_the_jvm_in_arrival_order(sidecar):
    stage = sidecar.open(descriptor(COUNT))
    stage.timers("flink")
    stage.update(rows(["k1", "k2", "k3"], {}))
    assert stage.flush() == [(b"k1", 10_000), (b"k2", 10_000), (b"k3", 10_000)]


def test_rocksdb_timers_of_one_timestamp_fire_in_their_serialized_keys_order(sidecar):
    # One key group: ordered by the key serializer's bytes, the binary row's length first.
    stage = sidecar.open(descriptor(COUNT))
    stage.timers("rocksdb", (0, 127))
    stage.update(rows(["bb", "a", "c", "ab"], {}))
    assert stage.flush() == []
    assert [k for k, _ in keys_fired(stage, 9_999)] == ["a", "c", "ab", "bb"]


def test_a_hop_window_registers_its_next_window_while_firing_and_it_fires_in_the_same_pass(sidecar):
    stage = sidecar.open(descriptor(COUNT, size_ms=10_000, slide_ms=5_000))
    stage.timers("heap")
    stage.update(rows(["k1", "k2"], {}))
    stage.flush()
    fired = keys_fired(stage, 9_999)
    assert sorted(fired) == [("k1", 5_000), ("k1", 10_000), ("k2", 5_000), ("k2", 10_000)]
    assert [end for _, end in fired][:2] == [5_000, 5_000]


def test_a_restored_heap_queue_adds_the_timers_by_key_group_as_flinks_heap_restore_does(sidecar):
    key_groups = {"k1": 9, "k2": 1, "k3": 5, "k4": 3, "k5": 7}
    original = sidecar.open(descriptor(COUNT))
    original.timers("heap")
    original.update(rows(["k1", "k2", "k3", "k4", "k5"], key_groups))
    original.flush()
    snapshot = original.snapshot()
    assert snapshot.column("$key").to_pylist() == [b"k2", b"k4", b"k3", b"k5", b"k1"]
    restored = sidecar.open(descriptor(COUNT))
    restored.timers("heap")
    restored.restore(snapshot, (0, 127))
    # Added k2, k4, k3, k5, k1: the heap fires the first, then the last, then back down.
    assert [k for k, _ in keys_fired(restored, 9_999)] == ["k2", "k1", "k5", "k3", "k4"]
    assert [k for k, _ in keys_fired(original, 9_999)] == ["k1", "k5", "k4", "k3", "k2"]


def test_the_timers_call_after_state_is_refused(sidecar):
    stage = sidecar.open(descriptor(COUNT))
    stage.update(rows(["k1"], {}))
    with pytest.raises(CallFailed, match="timers call came after"):
        stage.timers("heap")
