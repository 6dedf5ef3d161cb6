"""Our avro encoder's bytes against Flink's AvroRowDataSerializationSchema, byte for byte."""

from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from accelerator.formats import EncodeError, avro, types
from accelerator.testing.flink_oracle import AvroSerializer
from avro_types import LEGACY, MAPS, MODERN, NESTED, SCALARS, TIMESTAMPS
from rows import rows
from values import to_batch

SETTINGS = settings(max_examples=90, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])

_serializers: dict = {}


def assert_same_bytes(row_type: types.DataType, options: dict, rows_: list[tuple]) -> None:
    key = (row_type.serializable(), tuple(sorted(options.items())))
    if key not in _serializers:
        _serializers[key] = AvroSerializer(row_type.serializable(), options)
    expected = _serializers[key].serialize(rows_)
    actual = avro.encode(to_batch(row_type, rows_), row_type, avro.parse_options(options)).to_pylist()
    assert len(actual) == len(expected)
    for i, (e, a) in enumerate(zip(expected, actual)):
        assert a == e, f"row {i}: {rows_[i]!r}"


@pytest.mark.parametrize("options", [LEGACY, MODERN], ids=["legacy", "modern"])
@SETTINGS
@given(batch=rows(SCALARS, 5, 25))
def test_scalar_rows(options, batch):
    assert_same_bytes(SCALARS, options, batch)


@SETTINGS
@given(batch=rows(TIMESTAMPS, 5, 25))
def test_timestamps_without_the_legacy_mapping(batch):
    assert_same_bytes(TIMESTAMPS, MODERN, batch)


#: Epoch milliseconds far outside the years 0000-9999 (Flink holds any long), around the days
#: a Java int no longer holds.
_FAR_MILLIS = [-(2 ** 63), 2 ** 63 - 1, 2 ** 31 * 86_400_000, 2 ** 31 * 86_400_000 - 1, -(2 ** 31) * 86_400_000,
               -(2 ** 31) * 86_400_000 - 1, -62_167_219_200_001, 253_402_300_800_000, -1, 0]


@pytest.mark.parametrize("options", [LEGACY, MODERN], ids=["legacy", "modern"])
def test_timestamps_of_any_long_are_written_like_flink(options):
    # Without the legacy mapping Flink writes a TIMESTAMP through TimestampData.toLocalDateTime,
    # whose day is a Java int, also inside an ARRAY (whose schema is the legacy one).
    row_type = types.parse("ROW<`ts` TIMESTAMP(3), `a` ARRAY<TIMESTAMP(3)>, `n` TIMESTAMP(0) NOT NULL>")
    nanos = [m * 1_000_000 + k * 999_999 for m in _FAR_MILLIS for k in (0, 1) if m * 1_000_000 + k * 999_999
             < 2 ** 63 * 1_000_000]
    assert_same_bytes(row_type, options, [(v, [v, None, -v - 1], v) for v in nanos] + [(None, None, 0)])


@pytest.mark.parametrize("options", [LEGACY, MODERN], ids=["legacy", "modern"])
@SETTINGS
@given(batch=rows(NESTED, 3, 15))
def test_nested_rows(options, batch):
    assert_same_bytes(NESTED, options, batch)


@SETTINGS
@given(batch=rows(MAPS, 3, 15))
def test_maps_come_out_in_java_hash_map_order(batch):
    assert_same_bytes(MAPS, LEGACY, batch)


EDGE_ROWS = [
    (None, None, None, None, 1, float("nan"), float("nan"), None, None, None, None, None, None, None, None, None,
     None, None, None),
    (None, None, None, None, 2, float("inf"), float("-inf"), None, None, None, None, None, None, None, None, None,
     None, None, None),
    (True, -128, -32768, -2 ** 31, -2 ** 63, -0.0, 1e-7, Decimal("-99999999.99"),
     Decimal("99999999999999999999.999999999999999999"), Decimal("0"), "", "", b"", b"", 0, 0, 0, 0, 0),
    (False, 127, 32767, 2 ** 31 - 1, 2 ** 63 - 1, 1e10, 1e21, Decimal("0.01"),
     Decimal("-99999999999999999999.999999999999999999"), Decimal("-99999"), "\u00e9\U0001F600", "\x00\x7f",
     b"\x00\x01\x02\x03", b"\xff" * 300, -719_528, 86_399_999, 43_200_123, -1, -999_999_999),
    (None, None, None, None, 3, 1.17549435e-38, 2e23, Decimal("-0.01"), Decimal("-1E-18"), Decimal("-128"),
     "abc", "x" * 200, None, None, 2_932_896, 1000, 999, -9_223_372_036_854_775_808, 9_223_372_036_854_775_807),
    (None, None, None, None, -64, None, None, Decimal("1.28"), Decimal("1.27"), Decimal("127"), None, None, None,
     None, None, None, None, -1_000_000, 999_999),
]


@pytest.mark.parametrize("options", [LEGACY, MODERN], ids=["legacy", "modern"])
def test_edge_values(options):
    assert_same_bytes(SCALARS, options, EDGE_ROWS)


def test_sliced_batches_encode_like_whole_ones():
    rows_ = [(i, [f"t{i}"] * (i % 3), (i, (Decimal(i), [i * 1_000_000])), [(True, i, 1.5)], [i], [[b"x"]],
              (str(i), i)) for i in range(10)]
    whole = avro.encode(to_batch(NESTED, rows_), NESTED, avro.parse_options({})).to_pylist()
    part = avro.encode(to_batch(NESTED, rows_).slice(3, 4), NESTED, avro.parse_options({})).to_pylist()
    assert part == whole[3:7]
    assert_same_bytes(NESTED, {}, rows_)


def test_a_null_in_a_not_null_column_names_the_row():
    batch = to_batch(SCALARS, [EDGE_ROWS[0], EDGE_ROWS[0]])
    columns = list(batch.columns)
    columns[4] = pa.array([1, None], pa.int64())
    with pytest.raises(EncodeError) as caught:
        avro.encode(pa.RecordBatch.from_arrays(columns, schema=batch.schema), SCALARS, avro.parse_options({}))
    assert caught.value.result_row == 1 and "NOT NULL" in caught.value.reason


#: TIMESTAMP WITH LOCAL TIME ZONE at the top level and in a nested row (only without the legacy
#: mapping: with it, and inside an ARRAY or MAP, Flink derives no schema for it).
NESTED_LTZ = types.parse("ROW<`l0` TIMESTAMP(0) WITH LOCAL TIME ZONE, `r` ROW<`l` TIMESTAMP(6) WITH LOCAL TIME ZONE, "
                         "`i` INT>, `l3` TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL>")


@SETTINGS
@given(batch=rows(NESTED_LTZ, 3, 20))
def test_local_time_zone_timestamps_at_the_top_and_in_rows(batch):
    assert_same_bytes(NESTED_LTZ, MODERN, batch)


def test_local_time_zone_timestamps_of_any_long_are_written_like_flink():
    nanos = [m * 1_000_000 + k * 999_999 for m in _FAR_MILLIS for k in (0, 1) if m * 1_000_000 + k * 999_999
             < 2 ** 63 * 1_000_000]
    assert_same_bytes(NESTED_LTZ, MODERN, [(v, (v, 1), v) for v in nanos] + [(None, None, 0), (0, (None, None), -1)])
