"""What the over_agg stage answers at each watermark, against a row-at-a-time model written from
Flink 2.2.1's `RowTimeUnboundedPrecedingOverFunctionV2` (`over_model`): random out-of-order rows,
several rows per timestamp (where ROWS and RANGE differ), late rows, Java's INT/BIGINT wrapping,
DOUBLE sums in order, NaN and signed zeros in MIN/MAX, and a snapshot restored into a new stage
mid-stream."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.over.stage import OverAggStage, OverAggStateError
from over_model import OverModel, same

BUDGET = str(1 << 30).encode()
TYPES = {"int": "INT", "bigint": "BIGINT", "double": "DOUBLE"}
#: (function, arg, argument kind, accumulator type, result type) per aggregate.
AGGREGATES = [("count1", None, "bigint", "BIGINT", "BIGINT NOT NULL"),
              ("count", "x", "int", "BIGINT", "BIGINT NOT NULL"),
              ("sum0", "x", "int", "INT", "INT NOT NULL"),
              ("sum", "y", "bigint", "BIGINT", "BIGINT"),
              ("sum", "d", "double", "DOUBLE", "DOUBLE"),
              ("min", "d", "double", "DOUBLE", "DOUBLE"),
              ("max", "d", "double", "DOUBLE", "DOUBLE"),
              ("max", "x", "int", "INT", "INT"),
              ("avg", "y", "bigint", "BIGINT", "BIGINT"),
              ("avg", "d", "double", "DOUBLE", "DOUBLE")]
ROW = [("k", "VARCHAR(2147483647)"), ("ts", "TIMESTAMP(3)"), ("x", "INT"), ("y", "BIGINT"), ("d", "DOUBLE")]


def descriptor(frame: str, aggregates=AGGREGATES, fingerprint: str = "ab" * 32) -> dict:
    row = [{"name": n, "type": t} for n, t in ROW]
    return {"protocol": 1, "kind": "over_agg", "name": "t-over-agg", "frame": frame,
            "keys": [row[0]], "rowtime": "ts",
            "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                                 {"name": "$key_group", "type": "INT NOT NULL"},
                                 {"name": "$time", "type": "BIGINT NOT NULL"}] + row},
            "aggregates": [{"function": f, "arg": a, "acc": acc, "emit": True} for f, a, _, acc, _ in aggregates],
            "output": {"fields": row + [{"name": f"w0$o{i}", "type": r} for i, (*_, r) in enumerate(aggregates)]},
            "state": {"format": 1, "fingerprint": fingerprint}}


def call(stage: OverAggStage, name: str, batch: pa.RecordBatch | None = None, **metadata) -> pa.RecordBatch:
    batch = batch if batch is not None else pa.RecordBatch.from_arrays([], schema=pa.schema([]))
    meta = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    meta |= {f"accelerator.{k}".encode(): str(v).encode() for k, v in metadata.items()}
    return stage.process(batch.replace_schema_metadata(meta))


def update(stage: OverAggStage, rows: list[dict]) -> None:
    schema = stage.spec.input_schema
    columns = [pa.array([r["k"].encode() for r in rows], pa.binary()),
               pa.array([ord(r["k"][0]) % 128 for r in rows], pa.int32()),
               pa.array([r["t"] for r in rows], pa.int64())]
    columns += [pa.array([{"millis": r["t"], "nanos": 0} if n == "ts" else r[n] for r in rows],
                         schema.field(n).type) for n, _ in ROW]
    call(stage, "update", pa.RecordBatch.from_arrays(columns, schema=schema))


def fire(stage: OverAggStage, watermark: int) -> dict[tuple, list[tuple]]:
    answer = call(stage, "fire", watermark=watermark).to_pylist()
    out: dict[tuple, list[tuple]] = {}
    for row in answer:
        values = list(row.values())
        key, t = values[0].decode(), values[1]
        assert values[3] == {"millis": t, "nanos": 0}, "the rowtime column is the row's own"
        values[3] = t
        out.setdefault((key, t), []).append(tuple(values[2:]))
    return out


def model_row(r: dict) -> dict:
    return {"k": r["k"], "ts": r["t"], "x": r["x"], "y": r["y"], "d": r["d"]}


def random_rows(rng: random.Random, n: int, base: int) -> list[dict]:
    doubles = [1e16, 1.0, -1e16, 0.0, -0.0, float("nan"), 2.5, None, -3.25, float("inf")]
    return [{"k": rng.choice("abcde"), "t": base + rng.randrange(-30, 60),
             "x": rng.choice([None, 2147483647, 5, -7, 1]), "y": rng.choice([None, 9223372036854775807, 3, -4]),
             "d": rng.choice(doubles)} for _ in range(n)]


def assert_same(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for group, rows in want.items():
        assert len(got[group]) == len(rows), group
        for g, w in zip(got[group], rows):
            assert len(g) == len(w) and all(same(a, b) for a, b in zip(g, w)), (group, g, w)


@pytest.mark.parametrize("frame", ["rows", "range"])
@pytest.mark.parametrize("seed", range(6))
def test_every_watermark_emits_what_stock_emits(frame: str, seed: int):
    rng = random.Random(seed)
    stage, model = OverAggStage(descriptor(frame)), OverModel([(f, a, k) for f, a, k, *_ in AGGREGATES], frame)
    watermark = -2 ** 63
    for step in range(12):
        rows = random_rows(rng, rng.randrange(0, 40), step * 20)
        kept = [r for r in rows if r["t"] > watermark]  # the JVM drops late rows and sends none
        for r in rows:
            model.element(r["k"], r["t"], model_row(r))
        if kept:
            update(stage, kept)
        if rng.random() < 0.3 and step > 2:
            # Restore the snapshot into a new stage: held rows, their order and the accumulators survive.
            snapshot = call(stage, "snapshot")
            stage = OverAggStage(descriptor(frame))
            call(stage, "restore", snapshot, key_group_start=0, key_group_end=127, state_format=1,
                 state_fingerprint="ab" * 32)
        watermark = max(watermark, step * 20 + rng.randrange(-20, 40))
        assert_same(fire(stage, watermark), model.advance(watermark))
    assert model.dropped > 0


def test_rows_and_range_differ_on_a_shared_timestamp():
    rows = [{"k": "a", "t": 5, "x": 1, "y": 1, "d": 1.0}, {"k": "a", "t": 5, "x": 2, "y": 2, "d": 2.0},
            {"k": "a", "t": 3, "x": 4, "y": 4, "d": 4.0}]
    counts = {}
    for frame in ("rows", "range"):
        stage = OverAggStage(descriptor(frame))
        update(stage, rows)
        counts[frame] = [r[0 + 5] for r in fire(stage, 10)[("a", 5)]]
    # COUNT(*) after the 3 ms row and then each 5 ms row (ROWS), or after both (RANGE).
    assert counts == {"rows": [2, 3], "range": [3, 3]}


def test_a_watermark_before_the_rows_emits_nothing_and_keeps_them():
    stage = OverAggStage(descriptor("rows"))
    update(stage, [{"k": "a", "t": 50, "x": 1, "y": 1, "d": 1.0}])
    assert fire(stage, 49) == {}
    assert list(fire(stage, 50)) == [("a", 50)]


def test_another_querys_state_is_refused():
    stage = OverAggStage(descriptor("rows"))
    update(stage, [{"k": "a", "t": 50, "x": 1, "y": 1, "d": 1.0}])
    snapshot = call(stage, "snapshot")
    with pytest.raises(OverAggStateError, match="changed"):
        call(OverAggStage(descriptor("rows", fingerprint="cd" * 32)), "restore", snapshot, key_group_start=0,
             key_group_end=127, state_format=1, state_fingerprint="ab" * 32)
