"""TIMESTAMP and TIMESTAMP_LTZ values in the sidecar's Arrow layout.

Flink holds a timestamp as TimestampData: epoch milliseconds (a long) plus the nanoseconds within
that millisecond (0..999_999), whatever the declared precision, because its formats keep every
fractional digit they read. The sidecar holds the same pair as an Arrow struct
`struct<millis: int64 not null, nanos: int32 not null>`, so every instant of the years 0000-9999
at every precision is exact (a single int64 of nanoseconds covers only 1677-2262). TIMESTAMP_LTZ
is the same pair, the instant in UTC. Structs compare lexicographically (millis, then nanos),
which is TimestampData's own order, so DataFusion's comparisons, CASE, COALESCE and null handling
work on them unchanged; everything temporal beyond that is a `flink_*` UDF (plans/udfs.py).

The Java shim builds the same layout (runtime/arrow/ArrowTypes.java) and names the fields the
same in its Substrait plans.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

MILLIS = "millis"
NANOS = "nanos"
NANOS_PER_MILLI = 1_000_000

ARROW_TYPE = pa.struct([pa.field(MILLIS, pa.int64(), nullable=False), pa.field(NANOS, pa.int32(), nullable=False)])


def from_parts(millis, nanos, valid=None) -> pa.StructArray:
    """A timestamp column from epoch milliseconds and nanoseconds of the millisecond (arrays or
    numpy, without nulls: a null row's parts are ignored) and where the values are valid (None:
    all valid)."""
    millis = pa.array(millis, pa.int64())
    nanos = pa.array(nanos, pa.int32())
    mask = None
    if valid is not None:
        valid = np.asarray(valid, dtype=bool)
        if not valid.all():
            mask = pa.array(~valid, pa.bool_())
    return pa.StructArray.from_arrays([millis, nanos], fields=list(ARROW_TYPE), mask=mask)


def from_epoch_nanos(values: Sequence[int | None]) -> pa.StructArray:
    """A timestamp column from Python ints of nanoseconds since the epoch (any size; None = null)."""
    millis = np.zeros(len(values), dtype=np.int64)
    nanos = np.zeros(len(values), dtype=np.int32)
    valid = np.ones(len(values), dtype=bool)
    for i, v in enumerate(values):
        if v is None:
            valid[i] = False
        else:
            millis[i], nanos[i] = divmod(v, NANOS_PER_MILLI)
    return from_parts(millis, nanos, valid)


def from_epoch_millis(millis: pa.Array) -> pa.StructArray:
    """A timestamp column of whole milliseconds (an int64 array; nulls stay null)."""
    valid = millis.is_valid().to_numpy(zero_copy_only=False)
    parts = pc.fill_null(millis.cast(pa.int64()), 0)
    return from_parts(parts, np.zeros(len(millis), dtype=np.int32), valid)


def millis(column: pa.Array) -> pa.Int64Array:
    """Each value's epoch milliseconds (floored, as TimestampData.getMillisecond()); null where
    the value is null."""
    return pc.struct_field(column, [0])


def nanos(column: pa.Array) -> pa.Int32Array:
    """Each value's nanoseconds within its millisecond; null where the value is null."""
    return pc.struct_field(column, [1])



def epoch_nanos(column: pa.Array) -> list[int | None]:
    """Each value as Python int nanoseconds since the epoch (None for null): the value model of
    the exact format paths."""
    return [None if m is None else m * NANOS_PER_MILLI + n
            for m, n in zip(millis(column).to_pylist(), nanos(column).to_pylist())]


def zero_parts_under_nulls(column: pa.Array) -> pa.Array:
    """`column` with 0 in the parts of every null timestamp it holds, at any depth (a timestamp
    column, or ROWs, ARRAYs and MAPs of them): DataFusion may leave nulls there (a CASE without
    ELSE, an ARRAY[...] of a NULL timestamp), which the NOT NULL parts of the layout, and a cast to
    it, refuse. Only the parts change: every value and null stays as it was."""
    if not holds_timestamps(column.type):
        return column
    if column.type == ARROW_TYPE:
        if column.field(0).null_count == 0 and column.field(1).null_count == 0:
            return column
        return from_parts(pc.fill_null(column.field(0), 0), pc.fill_null(column.field(1), 0),
                          column.is_valid().to_numpy(zero_copy_only=False))
    mask = column.is_null() if column.null_count else None
    if pa.types.is_struct(column.type):
        children = [zero_parts_under_nulls(column.field(i)) for i in range(column.type.num_fields)]
        return pa.StructArray.from_arrays(children, fields=list(column.type), mask=mask)
    if pa.types.is_map(column.type):
        return pa.MapArray.from_arrays(column.offsets, zero_parts_under_nulls(column.keys),
                                       zero_parts_under_nulls(column.items), type=column.type, mask=mask)
    return pa.ListArray.from_arrays(column.offsets, zero_parts_under_nulls(column.values), type=column.type,
                                    mask=mask)


def nulls(arrow: pa.DataType, length: int) -> pa.Array:
    """`length` nulls of type `arrow` whose NOT NULL children (a timestamp's parts) hold zeros:
    pa.nulls puts nulls there, which a later cast to the same type refuses."""
    return zero_parts_under_nulls(pa.nulls(length, arrow))


def holds_timestamps(arrow: pa.DataType) -> bool:
    """Whether `arrow` is the timestamp layout or a struct, list or map holding it at some depth."""
    if arrow == ARROW_TYPE:
        return True
    if pa.types.is_struct(arrow):
        return any(holds_timestamps(f.type) for f in arrow)
    if pa.types.is_map(arrow):
        return holds_timestamps(arrow.key_type) or holds_timestamps(arrow.item_type)
    return pa.types.is_list(arrow) and holds_timestamps(arrow.value_type)
