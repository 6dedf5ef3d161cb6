"""What an `update` answers, however its rows were assigned (`aligned` for TUMBLE and HOP,
`session_runs` and `sessions` for SESSION): the timer registrations and deletions in stock's
order, and the rows dropped as late."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa


REGISTER = 1
DELETE = -1


def trigger_time(window: tuple[int, int]) -> int:
    """The time of a window's timer: its end - 1, where stock's trigger fires it and cleans it."""
    return window[1] - 1


def cleanup_time(window: tuple[int, int]) -> int:
    """The time of the cleanup timer stock's `WindowOperator.registerCleanupTimer` registers for a
    window: max(0, end - 1). For a window ending before the epoch that is a second timer at 0,
    which fires nothing and cleans nothing (its process function's cleanup time is end - 1, so the
    window is cleaned when it fires); it is still Flink's timer, and the equal timers' firing order
    depends on every timer held, so the operator registers and deletes it as stock does."""
    return max(0, window[1] - 1)


@dataclass
class TimerChanges:
    """The timer changes in order: per change its key, REGISTER or DELETE, the window and the
    timer's time (`trigger_time` or `cleanup_time`)."""

    keys: pa.Array
    ops: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    times: np.ndarray
    dropped: int

    @classmethod
    def none(cls, dropped: int) -> "TimerChanges":
        empty = np.zeros(0, dtype=np.int64)
        return cls(pa.array([], pa.binary()), np.zeros(0, dtype=np.int8), empty, empty, empty, dropped)

    def columns(self) -> list[pa.Array]:
        return [self.keys, pa.array(self.ops, pa.int8()), pa.array(self.starts, pa.int64()),
                pa.array(self.ends, pa.int64()), pa.array(self.times, pa.int64())]
