"""What the in-process stage benchmarks share, so each script holds only its stage's descriptor
and input: their command line, the CPU a run of a stage's calls takes (process time: the box is
shared, so wall time says little) with cProfile's costs of it on request, and the key bytes and
metadata of a batch as the JVM operator sends it."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np
import pyarrow as pa

#: A state budget no benchmark reaches: the stage never refuses for memory.
BUDGET = str(1 << 40).encode()


def arguments(doc: str) -> argparse.ArgumentParser:
    """A benchmark's command line, its module docstring as the help, with `--profile`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top costs")
    return parser


def call_metadata(call: bytes) -> dict[bytes, bytes]:
    """A request batch's metadata for `call` (`update`, `restore`, ...) with the budget above."""
    return {b"accelerator.call": call, b"accelerator.state_budget": BUDGET}


def key_bytes(*columns: np.ndarray) -> pa.Array:
    """Each row's key as Flink's BinaryRowData of BIGINT fields (8 header bytes, then the longs)."""
    raw = np.zeros((len(columns[0]), 1 + len(columns)), dtype=np.int64)
    for i, column in enumerate(columns):
        raw[:, 1 + i] = column
    width = raw.shape[1] * 8
    offsets = np.arange(len(raw) + 1, dtype=np.int32) * width
    return pa.Array.from_buffers(pa.binary(), len(raw), [None, pa.py_buffer(offsets), pa.py_buffer(raw.tobytes())])


class CpuRun:
    """The process CPU time of the `with` block, and cProfile's costs of it when `profile` is set
    (printed by `print_profile`, after the run's own line)."""

    def __init__(self, profile: bool):
        self.seconds = 0.0
        self._profiler = cProfile.Profile(time.process_time) if profile else None
        self._start = 0.0

    def __enter__(self) -> CpuRun:
        self._start = time.process_time()
        if self._profiler:
            self._profiler.enable()
        return self

    def __exit__(self, *exc) -> None:
        if self._profiler:
            self._profiler.disable()
        self.seconds = time.process_time() - self._start

    def per_million(self, rows: int, what: str = "rows") -> str:
        """`N CPU-s, M CPU-s per million <what>`, the figure every benchmark reports."""
        return f"{self.seconds:.2f} CPU-s, {self.seconds / max(rows, 1) * 1e6:.2f} CPU-s per million {what}"

    def print_profile(self, *orders: tuple[str, int]) -> None:
        """cProfile's top costs, for each (sort key, lines) of `orders`; nothing without `profile`."""
        for order, lines in orders or (("tottime", 25),):
            if self._profiler:
                pstats.Stats(self._profiler).sort_stats(order).print_stats(lines)
