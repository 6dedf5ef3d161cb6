"""Stock Flink's group window assignment in epoch milliseconds (`TumblingWindowAssigner`,
`SlidingWindowAssigner`, `SessionWindowAssigner` with offset 0), and the iteration order of the
`HashSet` in which `SessionWindowAssigner.mergeWindows` collects the sessions a new row merges:
it decides which session's accumulator the others merge into and in which order, and in which
order their timers are deleted, so it is reproduced from `TimeWindow.hashCode`."""

from __future__ import annotations

from accelerator.formats import java_hash_map

Window = tuple[int, int]


def window_start(time: int, length: int) -> int:
    """`TimeWindow.getWindowStartWithOffset(time, 0, length)`: floor to a multiple of `length`."""
    return time - time % length


def hop_windows(time: int, size: int, slide: int) -> list[Window]:
    """`SlidingWindowAssigner.assignWindows`: from the last window containing `time` backwards."""
    out = []
    start = window_start(time, slide)
    while start > time - size:
        out.append((start, start + size))
        start -= slide
    return out


def last_window(pane: Window, size: int, slide: int) -> Window:
    """`SlidingWindowAssigner.getLastWindow`: the last window that holds `pane`."""
    start = window_start(pane[0], slide)
    return start, start + size


def panes(window: Window, pane: int) -> list[Window]:
    """`SlidingWindowAssigner.splitIntoPanes`, in order."""
    return [(s, s + pane) for s in range(window[0], window[1], pane)]


def intersects(a: Window, b: Window) -> bool:
    """`TimeWindow.intersects`: sessions that touch merge too."""
    return a[0] <= b[1] and a[1] >= b[0]


def _int(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def _mod_inverse(x: int) -> int:
    inverse = _int(x * x * x)
    for _ in range(3):
        inverse = _int(inverse * _int(2 - _int(x * inverse)))
    return inverse


def java_hash(window: Window) -> int:
    """`TimeWindow.hashCode`."""
    start, end = window
    return _int(start + _mod_inverse(_int(_int(end << 1) + 1)))


def hash_set_order(windows: list[Window]) -> list[Window]:
    """The distinct `windows` in the order a `new HashSet<>()` they were added to (in this order)
    iterates them (`java_hash_map`'s model of `HashMap`, 16 buckets to start)."""
    order = java_hash_map.iteration_order(windows, hash_of=lambda w: java_hash(w) & 0xFFFFFFFF, capacity=16)
    return [windows[i] for i in order]
