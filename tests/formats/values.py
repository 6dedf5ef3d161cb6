"""Rows in the oracle's Python value model <-> Arrow batches of our types (see flink_oracle)."""

from __future__ import annotations

import struct

import pyarrow as pa

from accelerator.formats import types
from accelerator.formats.types import TIMESTAMP_LTZ


def _to_arrow_value(t: types.DataType, v):
    """Value model -> what pa.array accepts for to_arrow(t) (ints for DATE and TIME, the
    (millis, nanos of the milli) pair of a timestamp)."""
    if v is None:
        return None
    if t.root in ("TIMESTAMP", TIMESTAMP_LTZ):
        millis, nanos = divmod(v, 1_000_000)
        return {"millis": millis, "nanos": nanos}
    if t.root == "ARRAY":
        return [_to_arrow_value(t.children[0], x) for x in v]
    if t.root == "MAP":
        return [(k, _to_arrow_value(t.children[1], x)) for k, x in v]
    if t.root == "ROW":
        return {f.name: _to_arrow_value(f.type, x) for f, x in zip(t.fields, v)}
    return v


def _storage_type(t: types.DataType) -> pa.DataType:
    """Arrow type with the temporal leaves replaced by their integer storage."""
    if t.root == "DATE" or t.root == "TIME":
        return pa.int32()
    if t.root == "ARRAY":
        return pa.list_(pa.field("element", _storage_type(t.children[0])))
    if t.root == "MAP":
        return pa.map_(pa.field("key", _storage_type(t.children[0]), nullable=False),
                       pa.field("value", _storage_type(t.children[1])))
    if t.root == "ROW":
        return pa.struct([pa.field(f.name, _storage_type(f.type)) for f in t.fields])
    return types.to_arrow(t)


def to_batch(row_type: types.DataType, rows: list[tuple]) -> pa.RecordBatch:
    columns = []
    for i, f in enumerate(row_type.fields):
        storage = pa.array([_to_arrow_value(f.type, r[i]) for r in rows], _storage_type(f.type))
        columns.append(_from_storage(storage, f.type))
    return pa.RecordBatch.from_arrays(columns, schema=pa.schema(
        [pa.field(f.name, types.to_arrow(f.type)) for f in row_type.fields]))


def _from_storage(arr: pa.Array, t: types.DataType) -> pa.Array:
    target = types.to_arrow(t)
    if t.root in ("DATE", "TIME"):
        return arr.cast(target)
    if t.root == "ARRAY":
        return pa.ListArray.from_arrays(arr.offsets, _from_storage(arr.values, t.children[0]),
                                        type=target, mask=arr.is_null())
    if t.root == "MAP":
        return pa.MapArray.from_arrays(arr.offsets, arr.keys, _from_storage(arr.items, t.children[1]),
                                       type=target, mask=arr.is_null())
    if t.root == "ROW":
        children = [_from_storage(arr.field(i), f.type) for i, f in enumerate(t.fields)]
        return pa.StructArray.from_arrays(children, fields=list(target), mask=arr.is_null())
    return arr


def _from_arrow_value(t: types.DataType, v):
    if v is None:
        return None
    if t.root in ("TIMESTAMP", TIMESTAMP_LTZ):
        return v["millis"] * 1_000_000 + v["nanos"]
    if t.root == "ARRAY":
        return [_from_arrow_value(t.children[0], x) for x in v]
    if t.root == "MAP":
        return [(k, _from_arrow_value(t.children[1], x)) for k, x in v]
    if t.root == "ROW":
        return tuple(_from_arrow_value(f.type, v[f.name]) for f in t.fields)
    return v


def from_batch(row_type: types.DataType, batch: pa.RecordBatch) -> list[tuple]:
    """Arrow batch -> value model rows (DATE and TIME read from their integer storage)."""
    columns = [[_from_arrow_value(f.type, v) for v in _to_storage(batch.column(i), f.type).to_pylist()]
               for i, f in enumerate(row_type.fields)]
    return list(zip(*columns)) if columns else [() for _ in range(batch.num_rows)]


def _to_storage(arr: pa.Array, t: types.DataType) -> pa.Array:
    if t.root in ("DATE", "TIME"):
        return arr.cast(pa.int32())
    if t.root in ("TIMESTAMP", TIMESTAMP_LTZ):
        _check_timestamps(arr)
        return arr
    if t.root == "ARRAY":
        return pa.ListArray.from_arrays(arr.offsets, _to_storage(arr.values, t.children[0]), mask=arr.is_null())
    if t.root == "MAP":
        return pa.MapArray.from_arrays(arr.offsets, arr.keys, _to_storage(arr.items, t.children[1]),
                                       mask=arr.is_null())
    if t.root == "ROW":
        children = [_to_storage(arr.field(i), f.type) for i, f in enumerate(t.fields)]
        return pa.StructArray.from_arrays(children, names=[f.name for f in t.fields], mask=arr.is_null())
    return arr


_TIMESTAMP = pa.struct([pa.field("millis", pa.int64(), nullable=False), pa.field("nanos", pa.int32(), nullable=False)])


def _check_timestamps(arr: pa.Array) -> None:
    """The sidecar's timestamp layout (accelerator/formats/timestamps.py): the struct of epoch
    millis and nanos of the milli, the nanos within a millisecond, both children without nulls
    and 0 under a null timestamp."""
    assert arr.type == _TIMESTAMP, arr.type
    millis, nanos = arr.field(0), arr.field(1)  # with the struct's offset applied
    assert millis.null_count == 0 and nanos.null_count == 0
    valid = arr.is_valid().to_pylist()
    for v, m, n in zip(valid, millis.to_pylist(), nanos.to_pylist()):
        assert 0 <= n < 1_000_000 if v else (m, n) == (0, 0), (v, m, n)


def same(v):
    """Values compared bit for bit: NaN equals NaN, -0.0 differs from 0.0."""
    if isinstance(v, float):
        return ("float", struct.pack("<d", v))
    if isinstance(v, (list, tuple)):
        return type(v)(same(x) for x in v)
    return v
