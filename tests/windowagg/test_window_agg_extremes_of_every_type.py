"""MIN/MAX over strings, timestamps, dates, times and booleans, and SUM/MIN/MAX over TINYINT,
SMALLINT and FLOAT, against Flink's own comparison and arithmetic in the JVM (`java_semantics`:
`BinaryStringData.compareTo` of UTF-8 bytes, `TimestampData.compareTo`, `(byte) (a + b)`,
`Float.sum`), over random streams cut into batches and flush points, through a snapshot and a
restore, and in the global phase merging partials."""

from __future__ import annotations

import math

import java_semantics as java
import numpy as np
import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from window_agg_client import LONG_MIN, descriptor

from accelerator.formats import timestamps

#: Input column -> (Flink type, the accumulator's type, the `java_semantics` type root).
COLUMNS = {"s": ("VARCHAR(20)", "VARCHAR(2147483647)", "VARCHAR"),
           "t": ("TIMESTAMP(9)", "TIMESTAMP(9)", "TIMESTAMP"),
           "l": ("TIMESTAMP(6) WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ"),
           "dt": ("DATE", "DATE", "DATE"), "tm": ("TIME(3)", "TIME(0)", "TIME"),
           "b": ("BOOLEAN", "BOOLEAN", "BOOLEAN"), "ti": ("TINYINT", "TINYINT", "TINYINT"),
           "sm": ("SMALLINT", "SMALLINT", "SMALLINT"), "f": ("FLOAT", "FLOAT", "FLOAT")}
ORDERED = ("s", "t", "l", "dt", "tm", "b")
NARROW = ("ti", "sm", "f")
AGGREGATES = ([{"function": fn, "arg": c, "acc": COLUMNS[c][1]} for c in ORDERED + NARROW for fn in ("min", "max")]
              + [{"function": "sum", "arg": c, "acc": COLUMNS[c][1]} for c in NARROW])
NAMES = [f"{a['function']}{i}" for i, a in enumerate(AGGREGATES)]

#: Year 0001 to 9999 in epoch milliseconds, and the edges of a single int64 of nanoseconds (1677, 2262).
MILLIS = st.one_of(st.integers(-62_135_596_800_000, 253_402_300_799_999),
                   st.sampled_from([0, -1, 1, 9_223_372_036_854, 9_223_372_036_855, -9_223_372_036_855]))
TIMESTAMPS = st.tuples(MILLIS, st.one_of(st.integers(0, 999_999), st.sampled_from([0, 999_999])))
#: Non-ASCII and supplementary characters, and U+E000..U+FFFF, which UTF-16 orders before a
#: supplementary character and UTF-8 after it.
STRINGS = st.one_of(st.sampled_from(["", "a", "ab", "\x7f", "\x80", "\u00e9", "\ue000", "\uffff", "\U0001f600",
                                     "\U0010ffff", "a\U0001f600", "a\uffff"]),
                    st.text(st.characters(blacklist_categories=("Cs",)), max_size=5))
VALUES = {"s": STRINGS, "t": TIMESTAMPS, "l": TIMESTAMPS,
          "dt": st.integers(-719_162, 2_932_896), "tm": st.integers(0, 86_399_999), "b": st.booleans(),
          "ti": st.one_of(st.integers(-128, 127), st.sampled_from([127, -128])),
          "sm": st.one_of(st.integers(-32_768, 32_767), st.sampled_from([32_767, -32_768])),
          "f": st.one_of(st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 3e38, 1.0, 16_777_216.0]),
                         st.floats(width=32)).map(lambda x: float(np.float32(x)))}  # values a FLOAT holds
ROW = st.fixed_dictionaries({"key": st.sampled_from(["a", "b"]), "time": st.integers(0, 19_999),
                             **{c: st.one_of(st.none(), v) for c, v in VALUES.items()}})
STREAM = st.lists(st.tuples(st.lists(ROW, max_size=10), st.booleans()), min_size=1, max_size=4)


def column(name: str, values: list) -> pa.Array:
    """Values as the operator sends them: timestamps as (millis, nanos) parts, DATE and TIME as
    their int32."""
    if name in ("t", "l"):
        present = [v is not None for v in values]
        return timestamps.from_parts([v[0] if v else 0 for v in values], [v[1] if v else 0 for v in values], present)
    if name in ("dt", "tm"):
        return pa.array(values, pa.int32()).view(pa.date32() if name == "dt" else pa.time32("ms"))
    arrow = {"s": pa.string(), "b": pa.bool_(), "ti": pa.int8(), "sm": pa.int16(), "f": pa.float32()}[name]
    return pa.array(values, arrow)


def batch(stage, rows: list[dict], time_column: str = "$time", phase_columns: dict | None = None) -> pa.RecordBatch:
    columns = [pa.array([r["key"].encode() for r in rows], pa.binary()), pa.array([0] * len(rows), pa.int32()),
               pa.array([r["time"] for r in rows], pa.int64())]
    names = [f.name for f in stage.input_schema][3:]
    columns += [column((phase_columns or {}).get(n, n), [r[n] for r in rows]) for n in names]
    return pa.RecordBatch.from_arrays(columns, schema=stage.input_schema)


def python_values(answer: pa.RecordBatch, name: str) -> list:
    values = answer.column(name)
    if pa.types.is_struct(values.type):
        return [None if v is None else (v[timestamps.MILLIS], v[timestamps.NANOS]) for v in values.to_pylist()]
    if pa.types.is_date32(values.type) or pa.types.is_time32(values.type):
        return values.view(pa.int32()).to_pylist()
    return values.to_pylist()


def expected(aggregate: dict, rows: list[dict]):
    """What Flink's function holds after `rows` in arrival order (MIN/MAX: `x < acc` / `x > acc`
    by Flink's comparison; SUM: Java's arithmetic of the type)."""
    operands = [r[aggregate["arg"]] for r in rows]
    root = COLUMNS[aggregate["arg"]][2]
    if aggregate["function"] == "sum":
        return java.sum_of(root, operands)
    fold = java.min_of if aggregate["function"] == "min" else java.max_of
    return fold(operands, type_root=None if root == "FLOAT" else root)


def same(a, b) -> bool:
    """Equal values, a NaN equal to a NaN and 0.0 unequal to -0.0."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


def single_phase(sidecar):
    return sidecar.open(descriptor(AGGREGATES, arguments={c: t[0] for c, t in COLUMNS.items()}, size_ms=10_000,
                                   properties=()))


def fired(stage, watermark: int) -> dict[tuple[str, int], dict]:
    answer = stage.fire_batch(watermark)
    keys = [k.decode() for k in answer.column("$key").to_pylist()]
    ends = answer.column("$window_end").to_pylist()
    values = {n: python_values(answer, n) for n in NAMES}
    return {(k, e): {n: values[n][i] for n in NAMES} for i, (k, e) in enumerate(zip(keys, ends))}


def check(windows: dict, rows_of: dict, flushes_of: dict | None = None) -> None:
    """Each window's values against Java's fold of its rows; with `flushes_of` (the global phase:
    each window's rows per flush), the fold of each flush's fold, as stock's global combiner first
    merges one flush's partials into a fresh accumulator, then that into the window's (FLOAT
    addition is not associative, and a NaN a flush's MAX starts with hides the flush's larger
    values from the window's)."""
    assert set(windows) == set(rows_of)
    for window, rows in rows_of.items():
        for aggregate, name in zip(AGGREGATES, NAMES):
            if flushes_of is not None:
                arg = aggregate["arg"]
                want = expected(aggregate, [{arg: expected(aggregate, part)} for part in flushes_of[window]])
            else:
                want = expected(aggregate, rows)
            assert same(windows[window][name], want), (window, name, windows[window][name], want)


def windows_of(stream) -> dict:
    rows_of: dict[tuple[str, int], list] = {}
    for rows, _ in stream:
        for r in rows:
            rows_of.setdefault((r["key"], (r["time"] // 10_000 + 1) * 10_000), []).append(r)
    return rows_of


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stream=STREAM)
def test_random_streams_give_flinks_extremes_and_sums_whatever_the_batches(sidecar, stream):
    stage = single_phase(sidecar)
    for rows, flush in stream:
        stage.update(batch(stage, rows), progress=LONG_MIN)
        if flush:
            stage.flush()
    stage.flush()
    check(fired(stage, 30_000), windows_of(stream))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stream=STREAM, cut=st.integers(0, 4))
def test_a_snapshot_restored_into_a_fresh_stage_continues_as_the_original(sidecar, stream, cut):
    stage = single_phase(sidecar)
    for rows, _ in stream[:cut]:
        stage.update(batch(stage, rows), progress=LONG_MIN)
    stage.flush()
    snapshot = stage.snapshot()
    restored = single_phase(sidecar)
    restored.restore(snapshot, (0, 127))
    for rows, _ in stream[cut:]:
        restored.update(batch(restored, rows), progress=LONG_MIN)
    restored.flush()
    check(fired(restored, 30_000), windows_of(stream))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(partials=st.lists(st.lists(ROW, max_size=6), min_size=1, max_size=4))
def test_the_global_phase_merges_partials_as_their_accumulate_expressions_fold_them(sidecar, partials):
    """A partial is a local phase's accumulator; merging is the accumulate expression over it: each
    flush folds its partials in arrival order into a fresh accumulator, merged into the window's."""
    arguments = {f"p{i}": a["acc"] for i, a in enumerate(AGGREGATES)}
    aggregates = [{**a, "arg": f"p{i}"} for i, a in enumerate(AGGREGATES)]
    stage = sidecar.open(descriptor(aggregates, phase="global", arguments=arguments, size_ms=10_000, properties=()))
    rows_of: dict[tuple[str, int], list] = {}
    flushes_of: dict[tuple[str, int], list] = {}
    for rows in partials:
        ended = [{**r, "time": 10_000, **{f"p{i}": r[a["arg"]] for i, a in enumerate(AGGREGATES)}} for r in rows]
        stage.update(batch(stage, ended, phase_columns={f"p{i}": a["arg"] for i, a in enumerate(AGGREGATES)}),
                     progress=LONG_MIN)
        stage.flush()
        flushed: dict[tuple[str, int], list] = {}
        for r in rows:
            rows_of.setdefault((r["key"], 10_000), []).append(r)
            flushed.setdefault((r["key"], 10_000), []).append(r)
        for window, part in flushed.items():
            flushes_of.setdefault(window, []).append(part)
    check(fired(stage, 30_000), rows_of, flushes_of)


def test_strings_compare_by_their_utf8_bytes_not_their_utf16_units(sidecar):
    """U+FFFF is one UTF-16 unit above the surrogates of U+1F600, so Java's String.compareTo puts it
    last; its UTF-8 bytes (EF BF BF) are below U+1F600's (F0 9F 98 80), so Flink's byte comparison,
    which the operator's byte-backed strings get, puts it first."""
    assert "\U0001f600".encode("utf-16-be") < "\uffff".encode("utf-16-be")
    assert java.compare("VARCHAR", "\uffff", "\U0001f600") < 0
    rows = [{"key": "a", "time": 1, **{c: None for c in COLUMNS}, "s": s} for s in ["\U0001f600", "\uffff", "z"]]
    stage = single_phase(sidecar)
    stage.update(batch(stage, rows), progress=LONG_MIN)
    stage.flush()
    window = fired(stage, 30_000)[("a", 10_000)]
    assert (window["min0"], window["max1"]) == ("z", "\U0001f600")
