"""CUMULATE windows in the window_agg stage, against expectations worked out by hand from Flink's
`SliceAssigners.CumulativeSliceAssigner` and `SliceSharedSyncStateWindowAggProcessor`:

- a row belongs to the slice of `step` ms it falls in; its window's start is the max-size window's
  start, getWindowStartWithOffset(end - 1, offset, max size), and its first slice ends a step later;
- a window [start, end) fires from the first slice's state into which its last slice is merged;
  the result becomes the first slice's state, so DOUBLE sums add slice after slice, first to last;
- every fired window registers the next one's timer up to the max-size window's end (emptiness
  plays no part: the aggregate derives no COUNT(*) index), and clears its last slice, the first
  slice only with the last window;
- a row is dropped iff its max-size window fired; a row whose slice fired goes into the first slice
  and gets the first unfired window's timer at once."""

from __future__ import annotations

import numpy as np
from window_agg_client import descriptor

from accelerator.windowagg import windows
from accelerator.windowagg.spec import Window

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
SUM_V = {"function": "sum", "arg": "v", "acc": "BIGINT"}


def row(key: str, t: int, v=1, key_group: int = 0) -> dict:
    return {"$key": key, "$key_group": key_group, "$time": t, "v": v}


def cumulate(sidecar, value_type="BIGINT"):
    """20 s windows growing by 5 s steps."""
    return sidecar.open(descriptor([COUNT_STAR, {**SUM_V, "acc": value_type}], size_ms=20_000, step_ms=5_000,
                                   arguments={"v": value_type}))


def windows_of(fired: list[dict]) -> list[tuple]:
    return sorted((r["$key"], r["window_start"], r["window_end"], r["count10"], r["sum1"]) for r in fired)


def test_slices_window_starts_merges_expiry_and_next_windows_follow_flinks_formulas():
    w = Window(size_ms=20_000, offset_ms=0, zone_offset_ms=0, slide_ms=5_000, cumulative=True)
    assert windows.slice_ends(np.array([-1, 1_000, 6_000, 19_999, 20_000]), w).tolist() == [
        0, 5_000, 10_000, 20_000, 25_000]
    ends = np.array([0, 5_000, 10_000, 20_000, 25_000], dtype=np.int64)
    assert windows.window_starts(ends, w).tolist() == [-20_000, 0, 0, 0, 20_000]
    assert windows.first_slice_ends(ends, w).tolist() == [-15_000, 5_000, 5_000, 5_000, 25_000]
    assert windows.last_window_ends(ends, w).tolist() == [0, 20_000, 20_000, 20_000, 40_000]
    assert [windows.merged_slices(e, w) for e in (5_000, 15_000)] == [[5_000], [5_000, 15_000]]
    assert [windows.expired_slices(e, w) for e in (5_000, 15_000, 20_000)] == [[], [15_000], [20_000, 5_000]]
    assert [windows.next_window(e, w) for e in (5_000, 15_000, 20_000)] == [10_000, 20_000, None]


def test_each_window_continues_from_the_first_slice_so_double_sums_add_first_to_last(sidecar):
    stage = cumulate(sidecar, "DOUBLE")
    stage.update([row("a", 1_000, 1e16), row("a", 6_000, -1e16), row("a", 11_000, 1.0), row("b", 12_000, 4.0)])
    assert stage.flush() == [(b"a", 5_000), (b"a", 10_000), (b"a", 15_000), (b"b", 15_000)]
    # a's window ending 15000 is (1e16 + -1e16) + 1.0 = 1.0; merged last slice first it would be 0.0.
    # b has rows only in the third slice: its windows start with it. The window ending 20000 has
    # no rows of its own and still emits the cumulated value.
    assert windows_of(stage.fire(100_000)) == [
        ("a", 0, 5_000, 1, 1e16), ("a", 0, 10_000, 2, 0.0), ("a", 0, 15_000, 3, 1.0), ("a", 0, 20_000, 3, 1.0),
        ("b", 0, 15_000, 1, 4.0), ("b", 0, 20_000, 1, 4.0)]
    assert stage.snapshot().num_rows == 0


def test_a_checkpoint_after_a_partial_window_holds_the_merged_first_slice_and_restores_it(sidecar):
    stage = cumulate(sidecar)
    stage.update([row("a", 1_000, 1), row("a", 6_000, 2), row("a", 16_000, 4, key_group=3)])
    stage.flush()
    assert windows_of(stage.fire(9_999)) == [("a", 0, 5_000, 1, 1), ("a", 0, 10_000, 2, 3)]
    state = stage.snapshot()
    entries = sorted(zip(state.column("$window_end").to_pylist(), state.column("$slice").to_pylist(),
                         state.column("$timer").to_pylist(), state.column("$acc1").to_pylist()))
    # The first slice holds windows 5000 and 10000 merged (slice 10000 is gone); window 15000 has
    # the timer the window before registered and no slice; slice 20000 has its rows and timer.
    assert entries == [(5_000, True, False, 3), (15_000, False, True, None), (20_000, True, True, 4)]
    restored = cumulate(sidecar)
    restored.restore(state, (0, 127))
    expected = [("a", 0, 15_000, 2, 3), ("a", 0, 20_000, 3, 7)]
    assert windows_of(restored.fire(100_000)) == expected
    assert windows_of(stage.fire(100_000)) == expected


def test_a_row_after_its_slice_fired_goes_into_the_first_slice_until_the_max_size_window_fires(sidecar):
    stage = cumulate(sidecar)
    stage.update([row("a", 1_000, 1)])
    stage.flush()
    assert windows_of(stage.fire(9_999)) == [("a", 0, 5_000, 1, 1), ("a", 0, 10_000, 1, 1)]
    # At progress 9999 the window ending 0 (slice -1 ms) is gone; slices 5000 and 10000 fired,
    # their max-size window (20000) did not: both rows go into the first slice.
    assert stage.update([row("a", -1, 100), row("a", 2_000, 10), row("a", 7_000, 100)], progress=9_999) == 1
    # Stock's combiner registers no timer for the first slice, fired at the timer service's watermark.
    assert stage.flush(timer_watermark=9_999) == []
    assert windows_of(stage.fire(19_999)) == [("a", 0, 15_000, 3, 111), ("a", 0, 20_000, 3, 111)]
    assert stage.snapshot().num_rows == 0


def partial(end: int, count: int, total: int) -> dict:
    """A local phase's partial accumulators of key a for the slice ending at `end`."""
    return {"$key": "a", "$key_group": 0, "$time": end, "c": count, "s": total}


def test_the_global_phase_merges_a_late_slices_partials_into_the_first_slice(sidecar):
    """Phase global reads slice ends; a partial of a slice that fired goes into the first slice,
    as stock's global processor puts it there too."""
    stage = sidecar.open(descriptor([{"function": "count1", "arg": "c", "acc": "BIGINT NOT NULL"},
                                     {"function": "sum", "arg": "s", "acc": "BIGINT"}], phase="global",
                                    size_ms=20_000, step_ms=5_000, arguments={"c": "BIGINT NOT NULL", "s": "BIGINT"}))
    stage.update([partial(5_000, 1, 1), partial(10_000, 2, 20)])
    stage.flush()
    assert [(r["window_end"], r["count10"], r["sum1"]) for r in stage.fire(9_999)] == [(5_000, 1, 1), (10_000, 3, 21)]
    assert stage.update([partial(10_000, 1, 300), partial(20_000, 1, 4_000)], progress=9_999) == 0
    # Only slice 20000 gets a timer from the flush; slice 10000's partial went into the first slice.
    assert stage.flush(timer_watermark=9_999) == [(b"a", 20_000)]
    assert [(r["window_end"], r["count10"], r["sum1"]) for r in stage.fire(100_000)] == [
        (15_000, 4, 321), (20_000, 5, 4_321)]
