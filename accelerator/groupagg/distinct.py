"""DISTINCT aggregates of the group aggregate (COUNT(DISTINCT x), with or without FILTER; SUM,
MIN, MAX and AVG of DISTINCT x), over an insert-only input.

Stock Flink (`DistinctAggCodeGen` over an append-only input) keeps, per group, one map view per
distinct argument: each value seen maps to a bitmask with one bit per aggregate over that argument
(`DistinctInfo.aggIndexes`, in call order). A row whose FILTER holds for aggregate j and whose value
does not have bit j yet sets it and accumulates the value into aggregate j; any other row leaves
that aggregate alone. So aggregate j sees each value of its group once, the first time its FILTER
holds for it, and its accumulator is an ordinary one (`CountAggFunction`, `SumAggFunction`, ...)
fed those rows. The map's keys are the values as Flink's `equals` and serializers tell them apart:
a DOUBLE or FLOAT by its bits with every NaN one NaN (`doubleToLongBits`), so 0.0 and -0.0 are two
values; text by its bytes; a DECIMAL by its unscaled value (one scale per column).

Here the same bitmasks live in one `KeySlots` per argument, keyed by the group's slot (8 bytes)
followed by the value's bytes (`value_bytes`), so a batch finds its entries vectorized and
`first_sights` turns each aggregate's operand into its value on the rows where the bit was not
set yet and NULL elsewhere, which every accumulator skips. A NULL value is never accumulated:
stock keeps it in the map, but every aggregate it feeds skips NULL, so its bits change nothing.
Over an insert-only input a group's slot is never freed, so entries keep pointing at their group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps
from accelerator.sidecar.key_slots import KeySlots

if TYPE_CHECKING:
    from accelerator.groupagg.spec import Distinct

#: The argument types whose values `value_bytes` tells apart as Flink's distinct map view does.
#: (Stock's `AggregateUtil.createDistinctKeyType` refuses BINARY and VARBINARY; INTERVAL and ARRAY
#: values it takes stay stock here.)
VALUE_ROOTS = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "DATE", "TIME",
               "CHAR", "VARCHAR", "TIMESTAMP", "TIMESTAMP_LTZ")
#: One bit per aggregate over an argument in a 64-bit mask, as stock's `long` (more take `long[]`).
MAX_AGGREGATES = 64
#: The state column of one argument's entries: per group, each value's bytes and its bitmask.
ENTRY = pa.struct([pa.field("value", pa.binary(), nullable=False), pa.field("seen", pa.int64(), nullable=False)])
#: The list's child is named as Arrow Java names a list's child vector (`$data$`), which the JVM's
#: slices of the snapshot per key group (`VectorSchemaRoot.slice`) may give it.
ENTRIES = pa.list_(pa.field("$data$", ENTRY, nullable=False))
PREFIX = "$distinct"
#: The bytes of the group slot in front of every entry's key.
_SLOT_WIDTH = 8


def value_bytes(values: pa.Array) -> pa.Array:
    """Each value (none NULL) as the bytes that tell it from the others: little-endian for the
    fixed-width types (NaN made Java's one NaN, booleans one byte, DECIMAL its 16-byte unscaled
    value, DATE and TIME their days and milliseconds), the UTF-8 bytes of text, a timestamp's
    milliseconds then nanoseconds of the millisecond."""
    kind = values.type
    if pa.types.is_string(kind):
        return values.cast(pa.binary())
    if kind == timestamps.ARROW_TYPE:
        millis, nanos = values.flatten()
        return pc.binary_join_element_wise(_fixed_width(millis), _fixed_width(nanos), pa.scalar(b"", pa.binary()))
    if pa.types.is_boolean(kind):
        values = values.cast(pa.int8())
    elif pa.types.is_date32(kind) or pa.types.is_time32(kind):
        values = values.cast(pa.int32())
    elif pa.types.is_floating(kind):
        values = pc.if_else(pc.is_nan(values), pa.scalar(float("nan"), kind), values)
    return _fixed_width(values)


def _fixed_width(values: pa.Array) -> pa.Array:
    """A fixed-width array without NULLs as one binary value per element, its bytes."""
    width = values.type.bit_width // 8
    data = np.frombuffer(values.buffers()[1], dtype=np.uint8, count=width * len(values), offset=width * values.offset)
    offsets = np.arange(len(values) + 1, dtype=np.int32) * width
    return pa.Array.from_buffers(pa.binary(), len(values), [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def _entry_keys(slots: np.ndarray, values: pa.Array) -> pa.Array:
    """The entries' keys: each group slot's 8 bytes followed by the value's bytes."""
    prefix = _fixed_width(pa.array(slots.astype(np.int64, copy=False), pa.int64()))
    return pc.binary_join_element_wise(prefix, values, pa.scalar(b"", pa.binary()))


def _without_slots(keys: pa.Array) -> pa.Array:
    """The value bytes of entry keys (a binary array, offset 0), their slot bytes cut off."""
    n = len(keys)
    if n == 0:
        return pa.array([], pa.binary())
    offsets = np.frombuffer(keys.buffers()[1], dtype=np.int32, count=n + 1)
    data = np.frombuffer(keys.buffers()[2], dtype=np.uint8, count=int(offsets[-1]))
    keep = np.ones(len(data), dtype=bool)
    keep[(offsets[:-1, None] + np.arange(_SLOT_WIDTH)).ravel()] = False
    cut = offsets - _SLOT_WIDTH * np.arange(n + 1, dtype=np.int32)
    return pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(cut), pa.py_buffer(data[keep])])


class DistinctValues:
    """The values the DISTINCT aggregates over one argument have seen, per group: one entry per
    (group slot, value) with the group it belongs to (`owner`) and the bitmask of the aggregates
    that have seen it (`seen`, bit j for the argument's j-th aggregate)."""

    def __init__(self, distinct: Distinct, filters: list[str | None]):
        self.distinct = distinct
        self.filters = filters
        self.owner = np.zeros(0, dtype=np.int64)
        self.seen = np.zeros(0, dtype=np.uint64)
        # New entries come in most batches: the dict takes them without a pass over all entries.
        self.entries = KeySlots(self._grow, sorted_keys=False)

    def _grow(self, capacity: int) -> None:
        extra = capacity - len(self.seen)
        self.owner = np.concatenate([self.owner, np.zeros(extra, dtype=np.int64)])
        self.seen = np.concatenate([self.seen, np.zeros(extra, dtype=np.uint64)])

    def nbytes(self) -> int:
        return self.entries.nbytes() + self.owner.nbytes + self.seen.nbytes

    def first_sights(self, batch: pa.RecordBatch, slots: np.ndarray, key_groups: np.ndarray) -> list[np.ndarray]:
        """Per aggregate over this argument, in order: the rows where its FILTER holds for a value
        its group had not shown it yet (at most one row per group and value); records them."""
        n = batch.num_rows
        values = batch.column(self.distinct.arg)
        holds = [np.ones(n, dtype=bool) if f is None
                 else pc.fill_null(batch.column(f), False).to_numpy(zero_copy_only=False) for f in self.filters]
        rows = np.flatnonzero(~values.is_null().to_numpy(zero_copy_only=False) & np.logical_or.reduce(holds))
        firsts = [np.zeros(n, dtype=bool) for _ in holds]
        if len(rows) == 0:
            return firsts
        ids, created = self.entries.slots(_entry_keys(slots[rows], value_bytes(values.take(pa.array(rows)))),
                                          key_groups[rows])
        self.seen[ids[created]] = 0
        self.owner[ids] = slots[rows]
        for bit, (hold, first) in enumerate(zip(holds, firsts)):
            at = np.flatnonzero(hold[rows])
            held, earliest = np.unique(ids[at], return_index=True)
            flag = np.uint64(1) << np.uint64(bit)
            unseen = (self.seen[held] & flag) == 0
            first[rows[at[earliest[unseen]]]] = True
            self.seen[held] |= flag
        return firsts

    def snapshot(self, slots: np.ndarray) -> pa.Array:
        """The entries of the groups of `slots` (every group holding any), one list per slot in
        that order, each entry's value bytes and bitmask, entries in the order they were made."""
        ids = self.entries.live_slots()
        owners = self.owner[ids]
        position = np.full(int(max(slots.max(initial=-1), owners.max(initial=-1))) + 1, -1, dtype=np.int64)
        position[slots] = np.arange(len(slots))
        at = position[owners]
        if (at < 0).any():
            raise ValueError(f"DISTINCT values of {self.distinct.arg!r} belong to a group without state"
                             f" (slots {sorted(set(owners[at < 0].tolist()))[:5]}); the snapshot would lose them")
        order = np.lexsort((ids, at))
        ids, at = ids[order], at[order]
        offsets = np.zeros(len(slots) + 1, dtype=np.int32)
        offsets[1:] = np.cumsum(np.bincount(at, minlength=len(slots)))
        entries = pa.StructArray.from_arrays(
            [_without_slots(self.entries.keys(ids)), pa.array(self.seen[ids].view(np.int64))],
            fields=list(ENTRY))
        return pa.ListArray.from_arrays(pa.array(offsets), entries, type=ENTRIES)

    def restore(self, slots: np.ndarray, key_groups: np.ndarray, column: pa.Array,
                refuse: Callable[[str], Exception]) -> None:
        """Takes the entries of restored groups: `column` holds each restored row's list, `slots`
        and `key_groups` each row's group slot and key group."""
        offsets = column.offsets.to_numpy(zero_copy_only=False)
        parents = np.repeat(np.arange(len(column)), np.diff(offsets))
        values, seen = column.flatten().flatten()
        owners = slots[parents]
        ids, created = self.entries.slots(_entry_keys(owners, values), key_groups[parents])
        if not created.all() or len(np.unique(ids)) != len(ids):
            raise refuse(f"restored state holds a DISTINCT value of {self.distinct.arg!r} twice for one group"
                         f" (or one already restored); each group's values are written once")
        self.owner[ids] = owners
        self.seen[ids] = seen.to_numpy(zero_copy_only=False).view(np.uint64)


class DistinctAggregates:
    """Every DISTINCT argument of a group aggregate (`spec.distinct`): the operands its aggregates
    accumulate and their state columns."""

    def __init__(self, distinct: tuple[Distinct, ...], filters: list[str | None]):
        """`filters`: each aggregate's FILTER column (None without one), by aggregate index."""
        self.arguments = [DistinctValues(d, [filters[i] for i in d.aggregates]) for d in distinct]

    def nbytes(self) -> int:
        return sum(a.nbytes() for a in self.arguments)

    def state_fields(self) -> list[pa.Field]:
        """The state columns: `$distinct<d>` for the d-th argument."""
        return [pa.field(f"{PREFIX}{d}", ENTRIES, nullable=False) for d in range(len(self.arguments))]

    def operands(self, batch: pa.RecordBatch, slots: np.ndarray, key_groups: np.ndarray,
                 operands: list[pa.Array]) -> list[pa.Array]:
        """`operands` (one per aggregate, FILTERs applied) with each DISTINCT aggregate's NULL but
        where it sees a value first."""
        out = list(operands)
        for argument in self.arguments:
            for i, first in zip(argument.distinct.aggregates, argument.first_sights(batch, slots, key_groups)):
                out[i] = pc.if_else(pa.array(first), out[i], pa.nulls(len(first), out[i].type))
        return out

    def snapshot(self, slots: np.ndarray) -> list[pa.Array]:
        return [argument.snapshot(slots) for argument in self.arguments]

    def restore(self, batch: pa.RecordBatch, slots: np.ndarray, key_groups: np.ndarray,
                refuse: Callable[[str], Exception]) -> None:
        for field, argument in zip(self.state_fields(), self.arguments):
            argument.restore(slots, key_groups, batch.column(field.name), refuse)
