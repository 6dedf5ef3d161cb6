"""The local window aggregate folded into a rows stage (`accelerator/windowagg/local_phase.py`)
against a row-by-row model of stock Flink's local phase: `SliceAssigners.assignSliceEnd` (Java's
`TimeWindow.getWindowStartWithOffset`, whose `%` keeps the dividend's sign), `RecordsWindowBuffer`
(pairs of (key, slice end) in first-insertion order) and `LocalAggCombiner` (a fresh accumulator
per pair: COUNT from 0, SUM/MIN/MAX from NULL, NULL operands skipped, Java's wrapping `+` and
primitive `<`/`>`), flushed once."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from accelerator.formats import FormatError
from accelerator.plans.stage import MESSAGE
from accelerator.sidecar.stages import DescriptorError
from accelerator.windowagg.local_phase import LocalPhase

BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
ARROW = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64()}
TIMESTAMP = pa.struct([pa.field("millis", pa.int64(), nullable=False), pa.field("nanos", pa.int32(), nullable=False)])


def wrap(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def java_window_start(timestamp: int, offset: int, size: int) -> int:
    remainder = abs(timestamp - offset) % size * (1 if timestamp - offset >= 0 else -1)
    return timestamp - (remainder + size) if remainder < 0 else timestamp - remainder


def stock_local(rows: list[dict], keys: list[str], aggregates: list[dict], slice_ms: int, offset_ms: int,
                zone_offset_ms: int) -> list[tuple]:
    """Stock's local phase over `rows` in arrival order, flushed once: (keys..., accs..., slice end)."""
    buffer: dict[tuple, list] = {}
    for row in rows:
        shifted = row["t"] + zone_offset_ms
        end = java_window_start(shifted, offset_ms, slice_ms) + slice_ms
        pair = tuple(row[k] for k in keys) + (end,)
        if pair not in buffer:
            buffer[pair] = [0 if a["function"] in ("count1", "count") else None for a in aggregates]
        accs = buffer[pair]
        for i, a in enumerate(aggregates):
            x = None if a["arg"] is None else row[a["arg"]]
            if a["function"] == "count1":
                accs[i] += 1
            elif x is None:
                continue
            elif a["function"] == "count":
                accs[i] += 1
            elif accs[i] is None:
                accs[i] = x
            elif a["function"] == "sum":
                accs[i] = wrap(accs[i] + x, BITS[a["acc"]])
            elif a["function"] == "min" and x < accs[i]:
                accs[i] = x
            elif a["function"] == "max" and x > accs[i]:
                accs[i] = x
    return [pair[:-1] + tuple(accs) + (pair[-1],) for pair, accs in buffer.items()]


def section(keys, key_types, aggregates, window):
    fields = [{"name": k, "type": t} for k, t in zip(keys, key_types)]
    fields += [{"name": f"acc{i}", "type": a["acc"]} for i, a in enumerate(aggregates)]
    fields.append({"name": "$slice_end", "type": "BIGINT NOT NULL"})
    return {"keys": keys, "time": "t", "window": window, "aggregates": aggregates, "output": {"fields": fields}}


def batch(rows: list[dict], columns: dict[str, pa.DataType]) -> pa.RecordBatch:
    arrays = [pa.array([r[name] for r in rows], type) for name, type in columns.items()]
    arrays.append(pa.array([{"millis": r["t"], "nanos": 0} for r in rows], TIMESTAMP))
    arrays.append(pa.array([r["m"] for r in rows], pa.int32()))
    return pa.RecordBatch.from_arrays(arrays, names=list(columns) + ["t", MESSAGE])


WINDOWS = [
    {"type": "tumble", "size_ms": 10_000, "offset_ms": 0, "zone_offset_ms": 0},
    {"type": "hop", "size_ms": 10_000, "slide_ms": 2_000, "offset_ms": 0, "zone_offset_ms": 0},
    {"type": "cumulate", "size_ms": 10_000, "step_ms": 5_000, "offset_ms": 0, "zone_offset_ms": 0},
    {"type": "tumble", "size_ms": 3_600_000, "offset_ms": 0, "zone_offset_ms": 28_800_000},
]


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w['type']}-{w['zone_offset_ms']}")
@pytest.mark.parametrize("seed", range(4))
def test_partials_equal_stock_local_combiner(window, seed):
    rng = random.Random(seed)
    aggregates = [{"function": "count1", "arg": None, "acc": "BIGINT"},
                  {"function": "count", "arg": "v", "acc": "BIGINT"},
                  {"function": "sum", "arg": "v", "acc": "INT"},
                  {"function": "sum", "arg": "b", "acc": "BIGINT"},
                  {"function": "sum", "arg": "s", "acc": "TINYINT"},
                  {"function": "min", "arg": "v", "acc": "INT"},
                  {"function": "max", "arg": "b", "acc": "BIGINT"},
                  {"function": "max", "arg": "s", "acc": "TINYINT"}]
    rows = []
    for m in range(rng.randint(1, 400)):
        for _ in range(rng.choice([0, 1, 1, 2])):  # a message may make no row, or several
            rows.append({
                "k": rng.choice([None, "a", "b", "é", ""]), "n": rng.choice([None, 1, 2, -(2 ** 63)]),
                "v": rng.choice([None, 0, 7, -3, 2 ** 31 - 1, -(2 ** 31)]),
                "b": rng.choice([None, 1, 2 ** 63 - 1, -(2 ** 63)]), "s": rng.choice([None, 100, -100, 127]),
                "t": rng.randint(-40_000, 40_000) + rng.choice([0, 1_700_000_000_000]), "m": m})
    messages = (rows[-1]["m"] + 1) if rows else 1
    local = LocalPhase("bids-rows", section(["k", "n"], ["VARCHAR(2147483647)", "BIGINT"], aggregates, window),
                       batch(rows, {"k": pa.string(), "n": pa.int64(), "v": pa.int32(), "b": pa.int64(),
                                    "s": pa.int8()}).schema)
    got = local.partials(batch(rows, {"k": pa.string(), "n": pa.int64(), "v": pa.int32(), "b": pa.int64(),
                                      "s": pa.int8()}), messages)
    slice_ms = window.get("slide_ms") or window.get("step_ms") or window["size_ms"]
    expected = stock_local(rows, ["k", "n"], aggregates, slice_ms, window["offset_ms"], window["zone_offset_ms"])
    assert [tuple(r.values())[:-1] for r in got.to_pylist()] == expected
    assert got.column(MESSAGE).to_pylist() == [messages - 1] * len(expected)
    assert got.schema.field("acc2").type == pa.int32() and got.schema.field("acc4").type == pa.int8()


def test_no_rows_no_partials():
    aggregates = [{"function": "count1", "arg": None, "acc": "BIGINT"}]
    rows = batch([], {"k": pa.int64()})
    local = LocalPhase("s", section(["k"], ["BIGINT"], aggregates, WINDOWS[0]), rows.schema)
    assert local.partials(rows, 5).num_rows == 0


def test_null_rowtime_fails_naming_the_message():
    aggregates = [{"function": "count1", "arg": None, "acc": "BIGINT"}]
    rows = batch([{"k": 1, "t": 5, "m": 0}, {"k": 1, "t": 5, "m": 3}], {"k": pa.int64()})
    times = pa.array([{"millis": 5, "nanos": 0}, None], TIMESTAMP)
    rows = pa.RecordBatch.from_arrays([rows.column(0), times, rows.column(2)], schema=rows.schema)
    local = LocalPhase("s", section(["k"], ["BIGINT"], aggregates, WINDOWS[0]), rows.schema)
    with pytest.raises(FormatError, match="RowTime field should not be null") as failure:
        local.partials(rows, 4)
    assert failure.value.row == 3


@pytest.mark.parametrize("aggregate, why", [
    ({"function": "sum", "arg": "d", "acc": "DOUBLE"}, "only integer columns"),
    ({"function": "avg", "arg": "v", "acc": "BIGINT"}, "is not folded"),
    ({"function": "sum", "arg": "v", "acc": "BIGINT"}, "output column"),
])
def test_refuses_what_it_does_not_fold(aggregate, why):
    rows = batch([], {"k": pa.int64(), "v": pa.int32(), "d": pa.float64()})
    spec = section(["k"], ["BIGINT"], [aggregate], WINDOWS[0])
    if why == "output column":
        spec["output"]["fields"][1]["type"] = "INT"
    with pytest.raises(DescriptorError, match=why):
        LocalPhase("s", spec, rows.schema)


def test_refuses_keys_compared_by_bits():
    rows = batch([], {"d": pa.float64()})
    with pytest.raises(DescriptorError, match="not grouped here"):
        LocalPhase("s", section(["d"], ["DOUBLE"], [{"function": "count1", "arg": None, "acc": "BIGINT"}],
                                WINDOWS[0]), rows.schema)
