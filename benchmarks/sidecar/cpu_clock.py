"""The CPU time one part of a stage takes, summed over a benchmark's calls, for the in-process
stage benchmarks: which share of a stage's cost a change moved."""

from __future__ import annotations

import time
from contextlib import contextmanager


class CpuClock:
    """Sums the process CPU time spent in the attributes it wraps."""

    def __init__(self):
        self.seconds = 0.0

    @contextmanager
    def timing(self, owner, name: str):
        """Wraps `owner.name` (a method of a class or of one object) while the block runs."""
        inner = getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - start
        setattr(owner, name, timed)
        try:
            yield self
        finally:
            setattr(owner, name, inner)
