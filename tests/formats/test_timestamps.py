"""The sidecar's timestamp layout (accelerator/formats/timestamps.py)."""

import pyarrow as pa
import pytest

from accelerator.formats import timestamps

# Flink's bounds (0000-01-01T00:00 and 9999-12-31T23:59:59.999999999) and the int64-nanosecond ones.
EDGES = [-62_167_219_200_000_000_000, -9_223_372_036_854_775_809, -1, 0, 1,
         9_223_372_036_854_775_808, 253_402_300_799_999_999_999, None]


def test_epoch_nanos_round_trip_over_flinks_whole_range():
    column = timestamps.from_epoch_nanos(EDGES)
    assert column.type == timestamps.ARROW_TYPE
    assert timestamps.epoch_nanos(column) == EDGES
    # The pair is TimestampData's: floored milliseconds, then 0..999_999 nanoseconds of the millisecond.
    assert timestamps.millis(column).to_pylist()[2] == -1 and timestamps.nanos(column).to_pylist()[2] == 999_999


def _with_null_parts() -> pa.StructArray:
    """A timestamp column as DataFusion may return one: nulls in the parts under a null value."""
    parts = [pa.array([5, None], pa.int64()), pa.array([7, None], pa.int32())]
    validity = pa.array([True, False]).buffers()[1]
    return pa.StructArray.from_buffers(timestamps.ARROW_TYPE, 2, [validity], children=parts)


def test_null_parts_under_null_timestamps_become_zeros_so_the_layout_holds():
    column = _with_null_parts()
    with pytest.raises(pa.ArrowInvalid):
        column.cast(timestamps.ARROW_TYPE)
    fixed = timestamps.zero_parts_under_nulls(column)
    assert fixed.cast(timestamps.ARROW_TYPE).to_pylist() == [{"millis": 5, "nanos": 7}, None]
    assert fixed.field(0).null_count == 0 and fixed.field(1).null_count == 0


def test_timestamps_inside_rows_are_fixed_too():
    row = pa.StructArray.from_arrays([pa.array([1, 2]), _with_null_parts()], names=["a", "ts"])
    fixed = timestamps.zero_parts_under_nulls(row)
    assert fixed.field(1).field(0).null_count == 0
    assert fixed.to_pylist() == [{"a": 1, "ts": {"millis": 5, "nanos": 7}}, {"a": 2, "ts": None}]


def test_timestamps_inside_arrays_and_maps_are_fixed_too():
    ts = _with_null_parts()
    array = pa.ListArray.from_arrays(pa.array([0, 1, 2, 2], pa.int32()), ts, mask=pa.array([False, False, True]))
    fixed = timestamps.zero_parts_under_nulls(array)
    assert fixed.values.field(0).null_count == 0
    assert fixed.to_pylist() == [[{"millis": 5, "nanos": 7}], [None], None]
    keys = pa.array(["a", "b", "c"])
    values = pa.concat_arrays([_with_null_parts(), _with_null_parts()])[1:]
    mapped = pa.MapArray.from_arrays(pa.array([0, 1, 3], pa.int32()), keys, values)[1:]  # a slice keeps its offsets
    fixed_map = timestamps.zero_parts_under_nulls(mapped)
    assert fixed_map.items.field(0).null_count == 0
    assert fixed_map.to_pylist() == [[("b", {"millis": 5, "nanos": 7}), ("c", None)]]


def test_nulls_of_any_type_hold_zero_parts():
    arrow = pa.struct([pa.field("l", pa.list_(timestamps.ARROW_TYPE)), pa.field("ts", timestamps.ARROW_TYPE)])
    column = timestamps.nulls(arrow, 2)
    assert column.to_pylist() == [None, None]
    assert column.field(1).field(0).null_count == 0
    assert column.cast(arrow).null_count == 2
