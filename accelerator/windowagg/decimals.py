"""DECIMAL values as Python ints of their unscaled value, to and from Arrow's decimal128 layout.

Python ints are exact at any size, so a sum's overflow past Flink's 38 digits is seen, not
wrapped; the accumulators keep scale out of the arithmetic (operand and sum have the same scale).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

#: A DECIMAL holds at most 38 digits (`DecimalData.fromBigDecimal` gives null beyond).
LIMIT = 10 ** 38


def fits(unscaled: int) -> bool:
    """Whether a value with this unscaled value has at most 38 digits."""
    return -LIMIT < unscaled < LIMIT


def unscaled(column: pa.Array) -> list[int]:
    """The unscaled value of each slot of a decimal128 column (what a NULL slot holds is
    unspecified)."""
    if len(column) == 0:
        return []
    data = column.buffers()[1]
    words = np.frombuffer(data, dtype="<u8", count=2 * (column.offset + len(column)))[2 * column.offset:]
    low, high = words[0::2].tolist(), words[1::2].astype("<i8").tolist()
    return [(h << 64) | lo for lo, h in zip(low, high)]


def from_unscaled(values: list[int], valid: np.ndarray, arrow_type: pa.Decimal128Type) -> pa.Array:
    """A decimal128 column from unscaled values (ignored where `valid` is False)."""
    words = np.zeros(2 * len(values), dtype="<u8")
    if values:
        held = [v if ok else 0 for v, ok in zip(values, valid.tolist())]
        words[0::2] = [v & 0xFFFF_FFFF_FFFF_FFFF for v in held]
        words[1::2] = [(v >> 64) & 0xFFFF_FFFF_FFFF_FFFF for v in held]
    validity = None if valid.all() else pa.array(valid).buffers()[1]
    return pa.Array.from_buffers(arrow_type, len(values), [validity, pa.py_buffer(words.tobytes())],
                                 null_count=int((~valid).sum()))
