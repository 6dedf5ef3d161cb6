"""What every accumulator does first with a batch of operands: drop the NULL ones (Flink's
generated accumulate and retract code skip a NULL operand, and a FILTER that does not hold is a
NULL operand here)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def non_null(slots: np.ndarray, operands: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """The (slot, operand) pairs whose operand is not NULL, in order."""
    if not operands.null_count:
        return slots, operands
    kept = operands.is_valid().to_numpy(zero_copy_only=False)
    return slots[kept], operands.filter(pa.array(kept))
