"""DATE_FORMAT of a TIMESTAMP in the sidecar (`flink_date_format`) gives what Flink's own function
gives (`DateTimeUtils.formatTimestamp`, through JPype), for timestamps anywhere in the years
0000-9999 with digits below the millisecond, NULLs, and patterns of every letter and count the shim
accepts, quoted text and other characters.

The test draws the printers the sidecar runs and writes the pattern that makes them; the Java
DateTimePatternSubsetTest proves the shim reads each such pattern into those printers (the JDK's
own, compared through DateTimeFormatter.toString()).
"""

from __future__ import annotations

import json

import pyarrow as pa
from datafusion import SessionConfig, SessionContext
from hypothesis import given, settings
from hypothesis import strategies as st

from accelerator.formats import timestamps
from accelerator.plans import udfs
from accelerator.plans.date_format import date_format
from accelerator.testing.flink_oracle import flink_date_format

#: Flink's bounds, 0000-01-01T00:00 and 9999-12-31T23:59:59.999, in epoch milliseconds.
_MIN_MILLIS, _MAX_MILLIS = -62_167_219_200_000, 253_402_300_799_999
_TIMESTAMPS = st.one_of(st.none(), st.tuples(st.integers(_MIN_MILLIS, _MAX_MILLIS), st.integers(0, 999_999)),
                        st.sampled_from([(_MIN_MILLIS, 0), (_MAX_MILLIS, 999_999), (0, 0), (-1, 999_999),
                                         (-62_135_596_800_001, 1)]))  # the last instant of the year 0000

#: Letter per ChronoField (DateTimeFormatterBuilder's FIELD_MAP) and the counts that print a number.
_LETTERS = {"YEAR_OF_ERA": "y", "YEAR": "u", "MONTH_OF_YEAR": "M", "DAY_OF_MONTH": "d", "HOUR_OF_DAY": "H",
            "CLOCK_HOUR_OF_AMPM": "h", "CLOCK_HOUR_OF_DAY": "k", "HOUR_OF_AMPM": "K", "MINUTE_OF_HOUR": "m",
            "SECOND_OF_MINUTE": "s"}
_YEARS = ("YEAR_OF_ERA", "YEAR")


def _letter_printer(field: str, count: int) -> dict:
    if field in _YEARS and count == 2:
        return {"reduced": field}
    sign = ("NORMAL" if count < 4 else "EXCEEDS_PAD") if field in _YEARS else ("NORMAL" if count == 1 else "NOT_NEGATIVE")
    return {"value": field, "width": count, "sign": sign}


_FIELD = st.one_of(
    st.builds(lambda f, n: (_LETTERS[f] * n, _letter_printer(f, n)), st.sampled_from(_YEARS), st.integers(1, 10)),
    st.builds(lambda f, n: (_LETTERS[f] * n, _letter_printer(f, n)),
              st.sampled_from([f for f in _LETTERS if f not in _YEARS]), st.integers(1, 2)),
    st.builds(lambda n: ("S" * n, {"fraction": n}), st.integers(1, 9)),
)
_PLAIN = st.sampled_from(list("-/:., _+é€1")).map(lambda c: (c, {"literal": c}))
_QUOTED = st.text(alphabet="ab Z'-", min_size=0, max_size=4).map(
    lambda t: (f"'{t.replace(chr(39), chr(39) * 2)}'", {"literal": t or "'"}))


def _pattern(tokens: list[tuple[str, dict]]) -> tuple[str, list[dict]] | None:
    """The pattern and its printers; None when two tokens would run together into other letters."""
    text = "".join(t for t, _ in tokens)
    for (a, _), (b, _) in zip(tokens, tokens[1:]):
        if a[-1] == b[0] and (a[-1] == "'" or a[-1].isalpha()):
            return None
    return text, [p for _, p in tokens]


def _column(values: list[tuple[int, int] | None]) -> pa.StructArray:
    return timestamps.from_parts([v[0] if v else 0 for v in values], [v[1] if v else 0 for v in values],
                                 [v is not None for v in values])


@settings(max_examples=300, deadline=None)
@given(values=st.lists(_TIMESTAMPS, min_size=1, max_size=12),
       pattern=st.lists(st.one_of(_FIELD, _FIELD, _PLAIN, _QUOTED), max_size=8).map(_pattern).filter(bool))
def test_the_sidecar_formats_as_flink(values, pattern):
    text, printers = pattern
    spec = json.dumps(printers)
    out = date_format(_column(values), pa.array([spec] * len(values), pa.string()))
    assert out.to_pylist() == flink_date_format(values, text), text


def test_the_year_0000_is_year_of_era_1_and_proleptic_0_as_in_flink():
    values = [(_MIN_MILLIS, 0)]
    printers = [{"value": "YEAR_OF_ERA", "width": 4, "sign": "EXCEEDS_PAD"}, {"literal": " "},
                {"value": "YEAR", "width": 4, "sign": "EXCEEDS_PAD"}]
    assert flink_date_format(values, "yyyy uuuu") == ["0001 0000"]
    assert date_format(_column(values), pa.array([json.dumps(printers)])).to_pylist() == ["0001 0000"]


def test_years_beyond_flinks_range_get_javas_signs():
    # A TIMESTAMP plus an INTERVAL may leave the years 0000-9999; Java signs the proleptic year and
    # a year of more digits than its letters (EXCEEDS_PAD).
    values = [(-10**14, 0), (10**15, 0), (-62_167_219_200_001, 0), (253_402_300_800_000, 0)]
    pattern = "yyyy uuuu uuu u yy uu y"
    printers = [{"value": "YEAR_OF_ERA", "width": 4, "sign": "EXCEEDS_PAD"}, {"literal": " "},
                {"value": "YEAR", "width": 4, "sign": "EXCEEDS_PAD"}, {"literal": " "},
                {"value": "YEAR", "width": 3, "sign": "NORMAL"}, {"literal": " "},
                {"value": "YEAR", "width": 1, "sign": "NORMAL"}, {"literal": " "},
                {"reduced": "YEAR_OF_ERA"}, {"literal": " "}, {"reduced": "YEAR"}, {"literal": " "},
                {"value": "YEAR_OF_ERA", "width": 1, "sign": "NORMAL"}]
    out = date_format(_column(values), pa.array([json.dumps(printers)] * len(values)))
    assert out.to_pylist() == flink_date_format(values, pattern)
    assert [v.split()[1][0] for v in out.to_pylist()] == ["-", "+", "-", "+"]


def test_nexmark_q17s_day_of_a_sliced_column():
    values = [(1, 0), (1_709_251_199_999, 5), None, (-1, 0)]
    printers = json.dumps([{"value": "YEAR_OF_ERA", "width": 4, "sign": "EXCEEDS_PAD"}, {"literal": "-"},
                           {"value": "MONTH_OF_YEAR", "width": 2, "sign": "NOT_NEGATIVE"}, {"literal": "-"},
                           {"value": "DAY_OF_MONTH", "width": 2, "sign": "NOT_NEGATIVE"}])
    out = date_format(_column(values).slice(1, 3), pa.array([printers] * 3))
    assert out.to_pylist() == flink_date_format(values[1:], "yyyy-MM-dd") == ["2024-02-29", None, "1969-12-31"]


def test_datafusion_runs_the_registered_udf_with_the_printers_as_a_string_literal():
    ctx = SessionContext(SessionConfig().with_target_partitions(1))
    for function in udfs.flink_udfs():
        ctx.register_udf(function)
    ts = _column([(253_402_300_799_999, 999_999), None])
    ctx.register_record_batches("t", [[pa.record_batch([ts], names=["ts"])]])
    spec = json.dumps([{"value": "HOUR_OF_DAY", "width": 2, "sign": "NOT_NEGATIVE"}, {"fraction": 9}])
    out = ctx.sql(f"SELECT flink_date_format(ts, '{spec}') AS d FROM t").to_arrow_table()
    assert out.column("d").to_pylist() == flink_date_format([(253_402_300_799_999, 999_999), None], "HHSSSSSSSSS")
