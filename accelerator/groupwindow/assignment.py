"""What an `update` answers, however its rows were assigned (`aligned` for TUMBLE and HOP,
`session_runs` and `sessions` for SESSION): the timer registrations and deletions in stock's
order, and the rows dropped as late."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa


REGISTER = 1
DELETE = -1


class NegativeWindow(ValueError):
    """A window ending at or before the epoch: stock keeps its state until watermark 0 (its cleanup
    time is max(0, end - 1)) and fires late rows into it, which is not reproduced."""


@dataclass
class TimerChanges:
    """The timer changes in order: per change its key, REGISTER or DELETE, and the window."""

    keys: pa.Array
    ops: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    dropped: int

    @classmethod
    def none(cls, dropped: int) -> "TimerChanges":
        empty = np.zeros(0, dtype=np.int64)
        return cls(pa.array([], pa.binary()), np.zeros(0, dtype=np.int8), empty, empty, dropped)

    def columns(self) -> list[pa.Array]:
        return [self.keys, pa.array(self.ops, pa.int8()), pa.array(self.starts, pa.int64()),
                pa.array(self.ends, pa.int64())]
