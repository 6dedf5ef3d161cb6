"""The sidecar's timestamp UDFs give what Flink 2.2.1 gives, on the (millis, nanos) layout, over
the whole range Flink holds (years 0000-9999) and with digits below the millisecond.

The oracle is Flink itself in this process (JPype, the stock distribution's jars): a batch
TableEnvironment runs EXTRACT, TIMESTAMP +/- INTERVAL and TO_TIMESTAMP_LTZ through its own
generated code, and each timestamp it returns becomes the (getMillisecond(),
getNanoOfMillisecond()) pair of Flink's TimestampData.
"""

from __future__ import annotations

import functools

import pyarrow as pa
import pytest
from datafusion import SessionConfig, SessionContext

from accelerator.formats import timestamps
from accelerator.plans import udfs
from accelerator.testing import flink_oracle

#: TIMESTAMP(9) expressions Flink evaluates; year 0000 comes from an epoch count (Flink's string
#: cast reads no year 0), the rest from text with every digit.
INSTANTS = [
    "CAST(TO_TIMESTAMP_LTZ(-62167219200000, 3) AS TIMESTAMP(9))",  # 0000-01-01T00:00
    "CAST(TO_TIMESTAMP_LTZ(-62135596800001, 3) AS TIMESTAMP(9))",  # 0000-12-31T23:59:59.999
    "CAST('0001-01-01 01:02:03.004005006' AS TIMESTAMP(9))",
    "CAST('1677-09-21 00:12:43.145224191' AS TIMESTAMP(9))",  # below int64 nanoseconds
    "CAST('1969-12-31 23:59:59.999999999' AS TIMESTAMP(9))",
    "CAST('1970-01-01 00:00:00.000000001' AS TIMESTAMP(9))",
    "CAST('2026-01-01 12:34:56.789123456' AS TIMESTAMP(9))",
    "CAST('2262-04-11 23:47:16.854775808' AS TIMESTAMP(9))",  # above int64 nanoseconds
    "CAST('9999-12-31 23:59:59.999999999' AS TIMESTAMP(9))",
    "CAST(NULL AS TIMESTAMP(9))",
]

#: EXTRACT units and the (within, unit) literals the Java shim writes for them (TemporalFunctions).
UNITS = {"HOUR": (86_400_000, 3_600_000), "MINUTE": (3_600_000, 60_000), "SECOND": (60_000, 1000),
         "MILLISECOND": (1000, 1)}

#: Day-time intervals and their milliseconds (what the shim passes for `ts + INTERVAL ...`).
INTERVALS = {"INTERVAL '1' DAY": 86_400_000, "INTERVAL '-0.001' SECOND": -1, "INTERVAL '5' SECOND": 5000,
             "-INTERVAL '99 23:59:59.999' DAY TO SECOND": -(99 * 86_400_000 + 86_399_999),
             "INTERVAL '99 23:59:59.999' DAY TO SECOND": 99 * 86_400_000 + 86_399_999}


@functools.cache
def _flink():
    j = flink_oracle.java()
    jc = j.jpype.JClass
    settings = jc("org.apache.flink.table.api.EnvironmentSettings").inBatchMode()
    env = jc("org.apache.flink.table.api.TableEnvironment").create(settings)
    env.getConfig().set("table.local-time-zone", "UTC")
    # One task: a batch job over VALUES at the default parallelism (the cores) may hand its rows
    # back in any order, and the tests compare them row by row with the INSTANTS.
    env.getConfig().set("parallelism.default", "1")
    return env, j


def _value(v):
    """A Java result as Python: timestamps as Flink's (millis, nanos) pair."""
    if v is None:
        return None
    _, j = _flink()
    name = str(v.getClass().getName())
    if name == "java.time.LocalDateTime":
        data = j.TimestampData.fromLocalDateTime(v)
    elif name == "java.time.Instant":
        data = j.TimestampData.fromInstant(v)
    else:
        return int(v)
    return int(data.getMillisecond()), int(data.getNanoOfMillisecond())


def flink_select(columns: list[str], rows: list[str]) -> list[list]:
    """Flink's `SELECT columns FROM (VALUES rows) AS t(ts)`, each value as `_value` gives it, in the
    order of `rows` (each row carries its position: a loaded machine has handed them back out of
    order even at parallelism 1)."""
    env, _ = _flink()
    values = ", ".join(f"({at}, {r})" for at, r in enumerate(rows))
    result = env.executeSql(f"SELECT idx, {', '.join(columns)} FROM (VALUES {values}) AS t(idx, ts)")
    out = {}
    with result.collect() as it:
        while it.hasNext():
            row = it.next()
            out[int(row.getField(0))] = [_value(row.getField(i)) for i in range(1, row.getArity())]
    assert sorted(out) == list(range(len(rows))), "Flink returned every row once"
    return [out[at] for at in range(len(rows))]


def column(pairs: list[tuple[int, int] | None]) -> pa.StructArray:
    return timestamps.from_parts([p[0] if p else 0 for p in pairs], [p[1] if p else 0 for p in pairs],
                                 [p is not None for p in pairs])


def pairs(array: pa.Array) -> list[tuple[int, int] | None]:
    assert array.type == timestamps.ARROW_TYPE
    return [None if m is None else (m, n)
            for m, n in zip(timestamps.millis(array).to_pylist(), timestamps.nanos(array).to_pylist())]


@functools.cache
def flink_instants() -> list[tuple[int, int] | None]:
    return [row[0] for row in flink_select(["ts"], INSTANTS)]


def test_the_instants_span_flinks_years_with_sub_millisecond_digits():
    held = flink_instants()
    assert held[0] == (-62_167_219_200_000, 0)
    assert held[-2] == (253_402_300_799_999, 999_999)
    assert held[2][1] == 5006 and held[-1] is None


@functools.cache
def flink_results() -> dict[str, list]:
    """Every EXTRACT and TIMESTAMP(_LTZ) +/- INTERVAL of the instants, by expression, in one Flink job."""
    expressions = [f"EXTRACT({unit} FROM ts)" for unit in UNITS] + [
        f"{operand} {'-' if interval.startswith('-') else '+'} {interval.lstrip('-')}"
        for operand in ("ts", "CAST(ts AS TIMESTAMP_LTZ(9))") for interval in INTERVALS]
    rows = flink_select(expressions, INSTANTS)
    return {e: [row[i] for row in rows] for i, e in enumerate(expressions)}


@pytest.mark.parametrize("unit", UNITS)
def test_extract_gives_flinks_field(unit):
    expected = flink_results()[f"EXTRACT({unit} FROM ts)"]
    within, per = UNITS[unit]
    n = len(INSTANTS)
    ours = udfs.extract(column(flink_instants()), pa.array([within] * n, pa.int64()), pa.array([per] * n, pa.int64()))
    assert ours.to_pylist() == expected
    assert any(v is not None and v < 0 for v in expected), "a time before 1970 gives Flink's negative fields"


@pytest.mark.parametrize("interval", INTERVALS)
@pytest.mark.parametrize("ltz", [False, True], ids=["timestamp", "timestamp_ltz"])
def test_timestamp_plus_interval_gives_flinks_instant(interval, ltz):
    operand = "CAST(ts AS TIMESTAMP_LTZ(9))" if ltz else "ts"
    expected = flink_results()[f"{operand} {'-' if interval.startswith('-') else '+'} {interval.lstrip('-')}"]
    n = len(INSTANTS)
    ours = udfs.timestamp_plus_millis(column(flink_instants()), pa.array([INTERVALS[interval]] * n, pa.int64()))
    assert pairs(ours) == expected
    if INTERVALS[interval] > 86_400_000:
        assert expected[-2][0] > 253_402_300_799_999, "9999-12-31 plus days is past the year 9999 in Flink too"


def test_timestamp_plus_millis_wraps_the_long_sum_as_javas_plus():
    # Flink's generated code: TimestampData.fromEpochMillis(ts.getMillisecond() + millis, nanos).
    ours = udfs.timestamp_plus_millis(column([(2**63 - 1, 7), (-2**63, 0)]), pa.array([1, -1], pa.int64()))
    assert pairs(ours) == [(-2**63, 7), (2**63 - 1, 0)]


#: Around each of Flink's bounds, in milliseconds and seconds.
EPOCHS_MS = [0, -1, 1_767_225_600_123, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999,
             253_402_300_800_000, 2**63 - 1, -2**63, None]
EPOCHS_S = [0, -1, -62_167_219_200, -62_167_219_201, 253_402_300_799, 253_402_300_800, 2**62, -2**63, None]


@pytest.mark.parametrize("precision, epochs", [(3, EPOCHS_MS), (0, EPOCHS_S)])
def test_to_timestamp_ltz_gives_flinks_instant_or_null(precision, epochs):
    rows = ["CAST(NULL AS BIGINT)" if e is None else f"CAST({e} AS BIGINT)" for e in epochs]
    expected = [row[0] for row in flink_select([f"TO_TIMESTAMP_LTZ(ts, {precision})"], rows)]
    unit = 1000 if precision == 0 else 1
    ours = udfs.to_timestamp_ltz(pa.array(epochs, pa.int64()), pa.array([unit] * len(epochs), pa.int64()))
    assert pairs(ours) == expected
    assert expected[-1] is None and None in expected[:-1], "values outside 0000-9999 give NULL"


def test_datafusion_runs_every_timestamp_udf_on_the_struct_layout():
    ctx = SessionContext(SessionConfig().with_target_partitions(1))
    for function in udfs.flink_udfs():
        ctx.register_udf(function)
    ts = column([(253_402_300_799_999, 999_999), None, (-62_135_596_800_000 + 3_723_004, 5006)])
    ctx.register_record_batches("t", [[pa.record_batch([ts, pa.array([1, None, 2], pa.int64())], names=["ts", "e"])]])
    out = ctx.sql("SELECT flink_timestamp(CAST(-62167219200000 AS BIGINT), CAST(999999 AS INT)) AS lit,"
                  " flink_extract(ts, CAST(86400000 AS BIGINT), CAST(3600000 AS BIGINT)) AS h,"
                  " flink_timestamp_plus_millis(ts, CAST(-1 AS BIGINT)) AS shifted,"
                  " flink_to_timestamp_ltz(e, CAST(1000 AS BIGINT)) AS ltz,"
                  " ts > flink_timestamp(CAST(253402300799999 AS BIGINT), CAST(999998 AS INT)) AS later"
                  " FROM t").to_arrow_table()
    assert pairs(out.column("lit").combine_chunks()) == [(-62_167_219_200_000, 999_999)] * 3
    assert out.column("h").to_pylist() == [23, None, -22]
    assert pairs(out.column("shifted").combine_chunks()) == [(253_402_300_799_998, 999_999), None,
                                                             (-62_135_596_800_000 + 3_723_003, 5006)]
    assert pairs(out.column("ltz").combine_chunks()) == [(1000, 0), None, (2000, 0)]
    assert out.column("later").to_pylist() == [True, None, False]
