"""The group aggregate's state: one slot per key (`KeySlots`), holding one accumulator per
aggregate (the window aggregate's, `accumulators.for_aggregate`, with Java's arithmetic). A key that has a
slot has had a row: stock's `accState` is non-null for it, so its next row is no first row."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.groupagg.spec import GroupAggSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.windowagg import accumulators


class GroupAggState:
    def __init__(self, spec: GroupAggSpec):
        self.accumulators = [accumulators.for_aggregate(a) for a in spec.aggregates]
        self.key_slots = KeySlots(self._grow)

    def _grow(self, capacity: int) -> None:
        for column in self.accumulators:
            column.grow(capacity)

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    @property
    def key_group(self) -> np.ndarray:
        return self.key_slots.key_group

    def nbytes(self) -> int:
        """The state's memory, estimated from what it holds: the slots and the accumulators."""
        return self.key_slots.nbytes() + sum(c.nbytes() for c in self.accumulators)

    def slots(self, keys: pa.Array, key_groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's slot, created fresh (accumulators as Flink's `createAccumulators`) where the
        key has none, and per row whether its slot was created by this call."""
        slots, created = self.key_slots.slots(keys, key_groups)
        fresh = np.unique(slots[created])
        for column in self.accumulators:
            column.reset(fresh)
        return slots, created

    def holds(self, key: bytes) -> bool:
        return self.key_slots.holds(key)

    def live_slots(self) -> np.ndarray:
        return self.key_slots.live_slots()

    def keys(self, slots: np.ndarray) -> pa.Array:
        return self.key_slots.keys(slots)
