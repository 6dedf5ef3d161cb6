"""The window state's memory accounting and its budget (docs/design/stateful-window-aggregate.md
§3.6): every answer reports the state's entries and bytes, estimated from what the state holds, and
an update or restore that takes the state past the operator's managed-memory budget fails, naming
what to raise."""

from __future__ import annotations

import pytest
from window_agg_client import CallFailed, descriptor

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
SUM_V = {"function": "sum", "arg": "v", "acc": "BIGINT"}
KEY_LENGTH = 200


def rows(first: int, count: int, t: int) -> list[dict]:
    """`count` distinct keys of KEY_LENGTH bytes, one row each, in the window of `t`."""
    return [{"$key": f"{k:0{KEY_LENGTH}d}", "$key_group": k % 128, "$time": t, "v": k} for k in range(first, first + count)]


def gauges(stage) -> tuple[int, int]:
    metadata = stage.snapshot().schema.metadata
    return int(metadata[b"accelerator.state_entries"]), int(metadata[b"accelerator.state_bytes"])


def test_state_bytes_grow_with_each_key_held_and_shrink_when_its_window_fires(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR, SUM_V], arguments={"v": "BIGINT"}))
    stage.update(rows(0, 100, 5_000))
    stage.flush()
    entries, small = gauges(stage)
    assert entries == 100
    stage.update(rows(100, 2_000, 15_000))  # past the first capacity of slots: the arrays grow too
    stage.flush()
    entries, large = gauges(stage)
    assert entries == 2_100
    # Each new entry costs at least its key's bytes, and not much more than its key and objects.
    assert 2_000 * KEY_LENGTH < large - small < 2_000 * (KEY_LENGTH + 400)

    assert len(stage.fire(9_999)) == 100
    entries, after_first = gauges(stage)
    assert entries == 2_000 and large - after_first >= 100 * KEY_LENGTH
    assert len(stage.fire(19_999)) == 2_000
    entries, empty = gauges(stage)
    # The slot arrays keep their capacity; the keys and their table entries are gone.
    assert entries == 0 and after_first - empty >= 2_000 * KEY_LENGTH


def test_an_update_past_the_budget_fails_naming_the_budget_the_size_and_what_to_raise(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR]))
    stage.update(rows(0, 10, 5_000), budget=1_000_000)
    with pytest.raises(CallFailed) as failed:
        stage.update(rows(10, 5_000, 5_000), budget=1_000_000)
    reason = failed.value.reply["reason"]
    assert "'test-window-agg'" in reason and "5010 open (key, window) entries" in reason
    assert "outgrew its budget of 1000000 bytes" in reason
    assert "taskmanager.memory.managed.size" in reason and "taskmanager.memory.managed.consumer-weights" in reason


def test_a_restore_past_the_budget_fails(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR]))
    stage.update(rows(0, 5_000, 5_000))
    stage.flush()
    snapshot = stage.snapshot()
    restored = sidecar.open(descriptor([COUNT_STAR]))
    with pytest.raises(CallFailed, match="outgrew its budget of 100000 bytes"):
        restored.restore(snapshot, (0, 127), state_budget=100_000)
