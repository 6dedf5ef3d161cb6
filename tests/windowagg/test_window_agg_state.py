"""Snapshot and restore of the window aggregate's state: grouped by key group for Flink's raw keyed
state, restorable into fresh stages over other key-group ranges (rescaling) with the same results,
and refused, with a message saying why, when it is not this stage's state."""

from __future__ import annotations

import pyarrow as pa
import pytest
from window_agg_client import CallFailed, descriptor

AGGREGATES = [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"},
              {"function": "sum", "arg": "d", "acc": "DOUBLE"}, {"function": "max", "arg": "m", "acc": "DECIMAL(12, 3)"},
              {"function": "min", "arg": "i", "acc": "INT"}]
ARGUMENTS = {"d": "DOUBLE", "m": "DECIMAL(12, 3)", "i": "INT"}
#: key -> key group (as Flink's KeyGroupRangeAssignment would give them, max parallelism 128)
KEY_GROUPS = {"k1": 100, "k2": 3, "k3": 64, "k4": 3, "k5": 63, "k6": 127}


def event(key: str, t: int, d: float, m: str | None, i: int | None) -> dict:
    return {"$key": key, "$key_group": KEY_GROUPS[key], "$time": t, "d": d, "m": m, "i": i}


FIRST = [event("k1", 1_000, 1e16, "1.500", 7), event("k2", 2_000, 0.1, None, -3), event("k3", 12_000, 1.0, "2.000", None),
         event("k4", 3_000, -0.0, "-4.250", 9), event("k1", 4_000, 1.0, "0.001", 2), event("k5", 15_000, 2.5, None, 1),
         event("k6", 9_000, 0.2, "8.000", 5), event("k2", 11_000, 0.3, "1.000", 4)]
SECOND = [event("k1", 5_000, 1.0, "-1.000", 8), event("k3", 13_000, -1e16, None, 6), event("k4", 8_000, 0.7, "0.500", -2),
          event("k6", 19_999, 0.4, None, 0), event("k2", 7_000, -0.1, "3.000", 1), event("k5", 14_000, 1e-3, "9.999", None)]


def stage_after_first_events(sidecar):
    stage = sidecar.open(descriptor(AGGREGATES, arguments=ARGUMENTS))
    stage.update(FIRST)
    stage.flush()
    return stage


def fired(stage, watermark: int = 20_000) -> list[dict]:
    stage.flush()
    return sorted(stage.fire(watermark), key=lambda w: (w["$key"], w["$window_end"]))


def test_a_snapshot_is_grouped_by_key_group_in_first_occurrence_order_within_a_group(sidecar):
    snapshot = stage_after_first_events(sidecar).snapshot()
    assert snapshot.schema.names == ["$key_group", "$key", "$window_end", "$slice", "$timer", "$acc0", "$acc1",
                                     "$acc2", "$acc3"]
    # After a flush every window is a slice with its timer.
    assert all(snapshot.column("$slice").to_pylist()) and all(snapshot.column("$timer").to_pylist())
    assert list(zip(snapshot.column("$key_group").to_pylist(), snapshot.column("$key").to_pylist(),
                    snapshot.column("$window_end").to_pylist())) == [
        (3, b"k2", 10_000), (3, b"k4", 10_000), (3, b"k2", 20_000), (63, b"k5", 20_000), (64, b"k3", 20_000),
        (100, b"k1", 10_000), (127, b"k6", 10_000)]
    assert snapshot.schema.metadata[b"accelerator.state_format"] == b"2"
    assert snapshot.schema.metadata[b"accelerator.state_fingerprint"] == b"f" * 64


def test_state_restored_into_two_stages_split_by_key_group_range_fires_as_the_original(sidecar):
    original = stage_after_first_events(sidecar)
    snapshot = original.snapshot()
    original.update(SECOND)
    expected = fired(original)
    assert len(expected) == 8 and sum(w["count10"] for w in expected) == len(FIRST) + len(SECOND)

    rescaled = []
    for first, last in ((0, 63), (64, 127)):  # parallelism 1 -> 2 at max parallelism 128
        stage = sidecar.open(descriptor(AGGREGATES, arguments=ARGUMENTS))
        groups = snapshot.column("$key_group").to_pylist()
        part = snapshot.filter(pa.array([first <= g <= last for g in groups]))
        stage.restore(part, (first, last))
        assert stage.flush() == []  # restored windows have their timers in Flink's state already
        stage.update([e for e in SECOND if first <= e["$key_group"] <= last])
        rescaled += fired(stage)
    assert sorted(rescaled, key=lambda w: (w["$key"], w["$window_end"])) == expected


def test_the_global_phase_restores_state_and_keeps_merging_partials_into_it(sidecar):
    aggregates = [{"function": "count1", "arg": "c", "acc": "BIGINT NOT NULL"}, {"function": "sum", "arg": "s", "acc": "DOUBLE"}]
    arguments = {"c": "BIGINT NOT NULL", "s": "DOUBLE"}
    stage = sidecar.open(descriptor(aggregates, phase="global", arguments=arguments))
    stage.update([{"$key": "k", "$key_group": 5, "$time": 10_000, "c": 1, "s": 1e16},
                  {"$key": "k", "$key_group": 5, "$time": 10_000, "c": 1, "s": 1.0}])
    stage.flush()
    snapshot = stage.snapshot()
    restored = sidecar.open(descriptor(aggregates, phase="global", arguments=arguments))
    restored.restore(snapshot, (0, 127))
    for s in (stage, restored):
        s.update([{"$key": "k", "$key_group": 5, "$time": 10_000, "c": 2, "s": -1e16},
                  {"$key": "k", "$key_group": 5, "$time": 10_000, "c": 1, "s": 1.0}])
    # (1e16 + 1.0) + (-1e16 + 1.0): both intervals round away their 1.0
    assert fired(stage) == fired(restored) == [{"$key": "k", "$window_end": 10_000, "count10": 5, "sum1": 0.0,
                                                "window_start": 0, "window_end": 10_000}]


def test_a_key_group_outside_the_stages_range_is_refused(sidecar):
    snapshot = stage_after_first_events(sidecar).snapshot()
    stage = sidecar.open(descriptor(AGGREGATES, arguments=ARGUMENTS))
    with pytest.raises(CallFailed, match="key group 64, outside this subtask's key groups 0-63"):
        stage.restore(snapshot.filter(pa.array([g >= 3 for g in snapshot.column("$key_group").to_pylist()])), (0, 63))
    assert stage.snapshot().num_rows == 0  # nothing of the refused batch was kept


@pytest.mark.parametrize("metadata, reason", [
    ({"state_format": "3"}, "written by a newer flink-accelerator in state format 3; this sidecar reads format 2"),
    ({"state_format": "1"}, "written by an older flink-accelerator in state format 1; this sidecar reads format 2"),
    ({"state_fingerprint": "0" * 64}, "the query's window aggregate changed"),
])
def test_state_of_another_format_or_query_is_refused(sidecar, metadata, reason):
    snapshot = stage_after_first_events(sidecar).snapshot()
    stage = sidecar.open(descriptor(AGGREGATES, arguments=ARGUMENTS))
    with pytest.raises(CallFailed, match=reason):
        stage.restore(snapshot, (0, 127), **metadata)


def test_state_with_other_accumulators_or_restored_twice_is_refused(sidecar):
    snapshot = stage_after_first_events(sidecar).snapshot()
    other = sidecar.open(descriptor(AGGREGATES[:2], arguments=ARGUMENTS))
    with pytest.raises(CallFailed, match="restore columns"):
        other.restore(snapshot, (0, 127))
    stage = sidecar.open(descriptor(AGGREGATES, arguments=ARGUMENTS))
    stage.restore(snapshot, (0, 127))
    with pytest.raises(CallFailed, match="holds a \\(key, window\\) twice"):
        stage.restore(snapshot.slice(0, 1), (0, 127))
