"""HOP windows in the window_agg stage: slices, the late rule, the timers stock registers, and
windows merged from their slices, against expectations worked out by hand from Flink's
`SliceAssigners.HoppingSliceAssigner` and `SliceSharedSyncStateWindowAggProcessor`:

- a row belongs to the slice ending floor((t + zone offset - offset) / slide) * slide + offset + slide;
  the slice ending at e belongs to the windows ending e, e + slide, ..., e - slide + size;
- a row is dropped iff its slice's last window fired; if only its slice fired, the first window
  not yet fired gets a timer at once;
- a window is a fresh accumulator with its slices merged last slice first; one whose COUNT(*) is
  0 emits nothing; otherwise the next window's timer is registered, and its first slice expires."""

from __future__ import annotations

import numpy as np
from window_agg_client import LONG_MIN, descriptor

from accelerator.windowagg import windows
from accelerator.windowagg.spec import Window

HIDDEN_COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "emit": False}
SUM_V = {"function": "sum", "arg": "v", "acc": "BIGINT"}
HOUR = 3_600_000


def row(key: str, t: int, v=1, key_group: int = 0) -> dict:
    return {"$key": key, "$key_group": key_group, "$time": t, "v": v}


def hop(sidecar, size_ms=10_000, slide_ms=5_000, value_type="BIGINT"):
    return sidecar.open(descriptor([HIDDEN_COUNT_STAR, {**SUM_V, "acc": value_type}], size_ms=size_ms,
                                   slide_ms=slide_ms, arguments={"v": value_type}))


def windows_of(fired: list[dict]) -> list[tuple]:
    return sorted((r["$key"], r["window_start"], r["window_end"], r["sum1"]) for r in fired)


def test_slices_last_windows_and_first_unfired_windows_follow_flinks_formulas():
    w = Window(size_ms=10_000, offset_ms=0, zone_offset_ms=0, slide_ms=5_000)
    t = np.array([-1, 0, 4_999, 5_000, -5_001], dtype=np.int64)
    assert windows.slice_ends(t, w).tolist() == [0, 5_000, 5_000, 10_000, -5_000]
    assert windows.last_window_ends(np.array([0, 5_000]), w).tolist() == [5_000, 10_000]
    # Slice 5000 fired at 4999 (trigger 4999): its first unfired window is 10000; at 12000 the
    # window 10000 fired too (trigger 9999), 15000 (trigger 14999) did not.
    ends = np.array([5_000, 5_000, 5_000], dtype=np.int64)
    assert windows.first_unfired(ends, w, 4_998).tolist() == [5_000] * 3
    assert windows.first_unfired(ends, w, 4_999).tolist() == [10_000] * 3
    assert windows.first_unfired(ends, w, 12_000).tolist() == [15_000] * 3
    # Three-hour windows sliding by an hour in a +08:00 zone: epoch 0 is 08:00 wall clock.
    shifted = Window(size_ms=3 * HOUR, offset_ms=0, zone_offset_ms=8 * HOUR, slide_ms=HOUR)
    assert windows.slice_ends(np.array([0, HOUR - 1]), shifted).tolist() == [9 * HOUR, 9 * HOUR]
    assert windows.last_window_ends(np.array([9 * HOUR]), shifted).tolist() == [11 * HOUR]
    assert windows.triggers(np.array([9 * HOUR]), shifted).tolist() == [HOUR - 1]


def test_each_window_merges_its_slices_and_the_next_window_follows_until_one_is_empty(sidecar):
    stage = hop(sidecar)
    assert stage.update([row("a", 1_000, 1), row("a", 6_000, 2), row("b", 12_000, 4)]) == 0
    assert stage.flush() == [(b"a", 5_000), (b"a", 10_000), (b"b", 15_000)]
    answer = stage.fire_batch(100_000)
    assert windows_of(stage.rows_of(answer)) == [
        ("a", -5_000, 5_000, 1), ("a", 0, 10_000, 3), ("a", 5_000, 15_000, 2),
        ("b", 5_000, 15_000, 4), ("b", 10_000, 20_000, 4)]
    # a's window ending 20000 and b's ending 25000 fire empty: their timers emit nothing.
    assert answer.schema.metadata[b"accelerator.empty"] == b"2"
    assert stage.snapshot().num_rows == 0


def test_a_watermark_fires_the_following_windows_it_reaches_and_restored_timers_continue(sidecar):
    stage = hop(sidecar)
    stage.update([row("a", 1_000, 1), row("a", 6_000, 2), row("b", 12_000, 4, key_group=7)])
    stage.flush()
    assert windows_of(stage.fire(9_999)) == [("a", -5_000, 5_000, 1), ("a", 0, 10_000, 3)]
    state = stage.snapshot()
    entries = sorted(zip(state.column("$key").to_pylist(), state.column("$window_end").to_pylist(),
                         state.column("$slice").to_pylist(), state.column("$timer").to_pylist()))
    # Slice 5000 expired with window 10000; window 15000 of a has a timer but no slice of its own.
    assert entries == [(b"a", 10_000, True, False), (b"a", 15_000, False, True), (b"b", 15_000, True, True)]
    restored = hop(sidecar)
    restored.restore(state, (0, 127))
    expected = [("a", 5_000, 15_000, 2), ("b", 5_000, 15_000, 4), ("b", 10_000, 20_000, 4)]
    assert windows_of(restored.fire(100_000)) == expected
    assert windows_of(stage.fire(100_000)) == expected


def test_double_sums_merge_the_slices_from_the_last_one_back(sidecar):
    stage = hop(sidecar, size_ms=15_000, value_type="DOUBLE")
    stage.update([row("a", 1_000, 1.0), row("a", 6_000, -1e16), row("a", 11_000, 1e16)])
    stage.flush()
    fired = {r["window_end"]: r["sum1"] for r in stage.fire(14_999)}
    # Window 15000: (1e16 + -1e16) + 1.0 = 1.0; first to last, 1.0 + -1e16 would lose the 1.0.
    assert fired[15_000] == 1.0


def test_a_row_after_its_slice_fired_is_kept_until_its_last_window_and_gets_its_timer_at_once(sidecar):
    stage = hop(sidecar)
    # At progress 5000 the slice ending 0 is gone with its last window (5000); slice 5000's first
    # window fired but 10000 did not.
    assert stage.update([row("a", -1, 100), row("a", 1_000, 1)], progress=5_000) == 1
    # Stock's combiner registers no timer for slice 5000, fired at the timer service's watermark.
    assert stage.flush(timer_watermark=5_000) == []
    assert windows_of(stage.fire(9_999)) == [("a", 0, 10_000, 1)]
    entries = stage.snapshot()
    assert list(zip(entries.column("$window_end").to_pylist(), entries.column("$timer").to_pylist())) == [
        (15_000, True)]


def test_without_a_following_slice_nothing_is_emitted_when_the_timer_for_a_slice_was_never_registered(sidecar):
    """A row for a slice whose windows before the watermark fired empty: the first unfired window
    gets its timer from the row, later windows only as long as windows are not empty."""
    stage = hop(sidecar, size_ms=15_000)
    assert stage.update([row("a", 1_000, 1)], progress=LONG_MIN) == 0
    stage.flush()
    assert windows_of(stage.fire(9_999)) == [("a", -10_000, 5_000, 1), ("a", -5_000, 10_000, 1)]
    assert windows_of(stage.fire(14_999)) == [("a", 0, 15_000, 1)]
    assert stage.snapshot().num_rows == 1  # the timer of the window ending 20000, which will fire empty
