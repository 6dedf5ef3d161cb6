"""Slice ends, window ends and trigger times of TUMBLE and HOP windows, as Flink's
`TimeWindowUtil` and `SliceAssigners` (`TumblingSliceAssigner`, `HoppingSliceAssigner`) compute
them for a fixed-offset zone (the only zones the planner accelerates): int64 arithmetic, so extreme
values wrap as Java's `long` does.

A row belongs to one slice (of `slide` ms; a TUMBLE window is its own slice); the slice ending at
`e` belongs to the windows ending at `e`, `e + slide`, ..., `e - slide + size`."""

from __future__ import annotations

import numpy as np

from accelerator.windowagg.spec import Window


def slice_ends(rowtime_ms: np.ndarray, window: Window) -> np.ndarray:
    """The end of the slice each rowtime falls in: `getWindowStartWithOffset(toUtcTimestampMills(t,
    zone), offset, slide) + slide`. numpy's `%` takes the divisor's sign, which is what the Java
    code's `remainder < 0 ? remainder + slide` correction gives."""
    shifted = rowtime_ms + np.int64(window.zone_offset_ms)
    start = shifted - (shifted - np.int64(window.offset_ms)) % np.int64(window.slide_ms)
    return start + np.int64(window.slide_ms)


def last_window_ends(slice_ends_: np.ndarray, window: Window) -> np.ndarray:
    """The end of the last window each slice belongs to (`getLastWindowEnd`)."""
    return slice_ends_ - np.int64(window.slide_ms) + np.int64(window.size_ms)


def first_unfired(slice_ends_: np.ndarray, window: Window, progress: int) -> np.ndarray:
    """The first window end at or after each slice end that is not fired at `progress`: where
    stock registers a timer for a row that arrives after its slice fired but before its last
    window did (`AbstractSliceSyncStateWindowAggProcessor.processElement`)."""
    # fired(e) <=> e - 1 - zone_offset <= progress <=> e <= progress + 1 + zone_offset
    bound = np.int64(progress) + np.int64(1) + np.int64(window.zone_offset_ms)
    steps = np.where(slice_ends_ <= bound, (bound - slice_ends_) // np.int64(window.slide_ms) + 1, 0)
    return slice_ends_ + steps * np.int64(window.slide_ms)


def triggers(ends: np.ndarray, window: Window) -> np.ndarray:
    """When each window fires, in epoch milliseconds: `toEpochMillsForTimer(end - 1, zone)`."""
    return ends - np.int64(1) - np.int64(window.zone_offset_ms)


def fired(ends: np.ndarray, window: Window, watermark: int) -> np.ndarray:
    """Whether each window is fired at `watermark` (`TimeWindowUtil.isWindowFired`)."""
    return triggers(ends, window) <= np.int64(watermark)
