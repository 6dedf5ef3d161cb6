"""The group aggregate's state: one slot per key (`KeySlots`), holding one accumulator per
aggregate (the window aggregate's, `accumulators.for_aggregate`, with Java's arithmetic) and the
values its DISTINCT aggregates have seen (`distinct.DistinctAggregates`). Between
batches a key that has a slot has state: stock's `accState` is non-null for it, so its next row is
no first row; within a batch `live` tells which slots have state (a key whose rows were all
retracted loses it, and its slot is freed at the end of the batch)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.groupagg.distinct import DistinctAggregates
from accelerator.groupagg.spec import GroupAggSpec
from accelerator.sidecar.key_slots import KeySlots
from accelerator.windowagg import accumulators


class GroupAggState:
    def __init__(self, spec: GroupAggSpec):
        self.accumulators = [accumulators.for_aggregate(a) for a in spec.aggregates]
        self.distinct = DistinctAggregates(spec.distinct, [a.filter for a in spec.aggregates])
        self.live = np.zeros(0, dtype=bool)
        self.key_slots = KeySlots(self._grow)

    def _grow(self, capacity: int) -> None:
        for column in self.accumulators:
            column.grow(capacity)
        self.live = np.concatenate([self.live, np.zeros(capacity - len(self.live), dtype=bool)])

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    @property
    def key_group(self) -> np.ndarray:
        return self.key_slots.key_group

    def nbytes(self) -> int:
        """The state's memory, estimated from what it holds: the slots, the accumulators and the
        DISTINCT values."""
        return (self.key_slots.nbytes() + self.live.nbytes + sum(c.nbytes() for c in self.accumulators)
                + self.distinct.nbytes())

    def slots(self, keys: pa.Array, key_groups: np.ndarray) -> np.ndarray:
        """Each row's slot; a key without one gets a slot without state (not `live`)."""
        slots, created = self.key_slots.slots(keys, key_groups)
        self.live[slots[created]] = False
        return slots

    def restored(self, keys: pa.Array, key_groups: np.ndarray) -> np.ndarray:
        """The slots of restored keys, which have state."""
        slots = self.slots(keys, key_groups)
        self.live[slots] = True
        return slots

    def free_emptied(self, slots: np.ndarray) -> None:
        """Frees those of `slots` whose key has no state left (stock's `accState.clear()`)."""
        self.key_slots.free(np.unique(slots[~self.live[slots]]))

    def holds(self, key: bytes) -> bool:
        return self.key_slots.holds(key)

    def live_slots(self) -> np.ndarray:
        return self.key_slots.live_slots()

    def keys(self, slots: np.ndarray) -> pa.Array:
        return self.key_slots.keys(slots)
