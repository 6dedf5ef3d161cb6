"""Slice ends, window ends and trigger times of TUMBLE, HOP and CUMULATE windows, as Flink's
`TimeWindowUtil` and `SliceAssigners` (`TumblingSliceAssigner`, `HoppingSliceAssigner`,
`CumulativeSliceAssigner`) compute them for a fixed-offset zone (the only zones the planner
accelerates): int64 arithmetic, so extreme values wrap as Java's `long` does.

A row belongs to one slice (of `slide` ms, a CUMULATE window's step; a TUMBLE window is its own
slice). The slice ending at `e` belongs to the windows ending at `e`, `e + slide`, ..., up to its
last window: `e - slide + size` (HOP), or the end of its max-size window (CUMULATE)."""

from __future__ import annotations

import numpy as np

from accelerator.windowagg.spec import Window


def _start_with_offset(shifted: np.ndarray, offset_ms: int, length_ms: int) -> np.ndarray:
    """`TimeWindow.getWindowStartWithOffset`. numpy's `%` takes the divisor's sign, which is what
    the Java code's `remainder < 0 ? remainder + size` correction gives."""
    return shifted - (shifted - np.int64(offset_ms)) % np.int64(length_ms)


def slice_ends(rowtime_ms: np.ndarray, window: Window) -> np.ndarray:
    """The end of the slice each rowtime falls in: `getWindowStartWithOffset(toUtcTimestampMills(t,
    zone), offset, slide) + slide`."""
    shifted = rowtime_ms + np.int64(window.zone_offset_ms)
    return _start_with_offset(shifted, window.offset_ms, window.slide_ms) + np.int64(window.slide_ms)


def window_starts(ends: np.ndarray, window: Window) -> np.ndarray:
    """The start of each window ending at `ends` (`getWindowStart`): `end - size`, or for CUMULATE
    the start of the max-size window the end falls in, `getWindowStartWithOffset(end - 1, offset,
    max size)`."""
    if window.cumulative:
        return _start_with_offset(ends - np.int64(1), window.offset_ms, window.size_ms)
    return ends - np.int64(window.size_ms)


def first_slice_ends(ends: np.ndarray, window: Window) -> np.ndarray:
    """The first slice of each window ending at `ends`: for CUMULATE the slice that holds the
    windows' merged state (`getFirstSliceEnd`, the merge target of `mergeSlices`)."""
    return window_starts(ends, window) + np.int64(window.slide_ms)


def last_window_ends(slice_ends_: np.ndarray, window: Window) -> np.ndarray:
    """The end of the last window each slice belongs to (`getLastWindowEnd`)."""
    if window.cumulative:
        return window_starts(slice_ends_, window) + np.int64(window.size_ms)
    return slice_ends_ - np.int64(window.slide_ms) + np.int64(window.size_ms)


def merged_slices(end: int, window: Window) -> list[int]:
    """The slices a fired window's value is merged from, in merge order: a HOP window's from its
    last slice back to its first (`HoppingSlicesIterable`; a TUMBLE window's one slice); a
    CUMULATE window's first slice (the state of the windows fired before it), then its last slice
    unless that is the first (`CumulativeSliceAssigner.mergeSlices`)."""
    if window.cumulative:
        first = int(first_slice_ends(np.array([end], dtype=np.int64), window)[0])
        return [first] if end == first else [first, end]
    return [end - j * window.slide_ms for j in range(window.slices_per_window)]


def expired_slices(end: int, window: Window) -> list[int]:
    """The slices cleared after the window ending at `end` fired (`expiredSlices`): a HOP or
    TUMBLE window's first slice; a CUMULATE window's last slice, except the first (it holds the
    merged state) and, at the last window, the first slice too."""
    if not window.cumulative:
        return [end - window.size_ms + window.slide_ms]
    first = int(first_slice_ends(np.array([end], dtype=np.int64), window)[0])
    if end == first:
        return []
    if end == int(last_window_ends(np.array([end], dtype=np.int64), window)[0]):
        return [end, first]
    return [end]


def next_window(end: int, window: Window) -> int | None:
    """The window whose timer the fired window ending at `end` registers (`nextTriggerWindow`):
    `end + slide`; for CUMULATE none past the last window of the max-size window."""
    following = end + window.slide_ms
    if window.cumulative and following > int(last_window_ends(np.array([end], dtype=np.int64), window)[0]):
        return None
    return following


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
