"""Window ends and trigger times of a TUMBLE window, as Flink's `TimeWindowUtil` and
`SliceAssigners$TumblingSliceAssigner` compute them for a fixed-offset zone (the only zones the
planner accelerates): int64 arithmetic, so extreme values wrap as Java's `long` does."""

from __future__ import annotations

import numpy as np

from accelerator.windowagg.spec import Window


def window_ends(rowtime_ms: np.ndarray, window: Window) -> np.ndarray:
    """The end of the window each rowtime falls in: `getWindowStartWithOffset(toUtcTimestampMills(t,
    zone), offset, size) + size`. numpy's `%` takes the divisor's sign, which is what the Java
    code's `remainder < 0 ? remainder + size` correction gives."""
    shifted = rowtime_ms + np.int64(window.zone_offset_ms)
    start = shifted - (shifted - np.int64(window.offset_ms)) % np.int64(window.size_ms)
    return start + np.int64(window.size_ms)


def triggers(ends: np.ndarray, window: Window) -> np.ndarray:
    """When each window fires, in epoch milliseconds: `toEpochMillsForTimer(end - 1, zone)`."""
    return ends - np.int64(1) - np.int64(window.zone_offset_ms)


def fired(ends: np.ndarray, window: Window, watermark: int) -> np.ndarray:
    """Whether each window is fired at `watermark` (`TimeWindowUtil.isWindowFired`)."""
    return triggers(ends, window) <= np.int64(watermark)
