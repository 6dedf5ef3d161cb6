"""The top_n stage over long random streams, against a row-at-a-time model of Flink 2.2.1's
AppendOnlyTopNFunction written from its rules here (a sorted buffer per key, the row inserted after
the rows of an equal sort key): many keys, few sort values (so rows tie), N = 3, batches of
random sizes, with and without the row number and update-befores, enough churn that the row
store is compacted, and a snapshot restored into a new stage halfway."""

from __future__ import annotations

import bisect

import numpy as np
import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.rank.stage import TopNStage
from accelerator.sidecar import row_store

I, UB, UA, D = 0, 1, 2, 3
N = 3
ROW = [{"name": "k", "type": "BIGINT"}, {"name": "p", "type": "BIGINT"}, {"name": "id", "type": "BIGINT"}]
BUDGET = str(1 << 34).encode()


def stage(rank_number: bool, update_before: bool) -> TopNStage:
    output = ROW + ([{"name": "rn", "type": "BIGINT NOT NULL"}] if rank_number else [])
    return TopNStage({
        "name": "t", "keys": [ROW[0]], "sort": [{"name": "p", "type": "BIGINT", "ascending": False, "nulls_last": True}],
        "rank_end": N, "output_rank_number": rank_number, "generate_update_before": update_before,
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}] + ROW},
        "output": {"fields": output}, "state": {"format": 1, "fingerprint": "ab" * 32}})


class StockModel:
    """AppendOnlyTopNFunction row by row: per key, its rows sorted by price descending, ties in
    arrival order, of which the first N are the top."""

    def __init__(self, rank_number: bool, update_before: bool):
        self.rank_number, self.update_before = rank_number, update_before
        self.buffers: dict[int, list[tuple[int, int, tuple]]] = {}
        self.arrived = 0

    def add(self, row_index: int, row: tuple) -> list[tuple]:
        k, p, _ = row
        buffer = self.buffers.setdefault(k, [])
        self.arrived += 1
        entry = (-p, self.arrived, row)  # descending price, then arrival
        at = bisect.bisect_right(buffer, (-p, self.arrived, row))
        held = min(len(buffer), N)
        buffer.insert(at, entry)
        if at >= N:
            return []
        out = []
        if not self.rank_number:
            if held == N:
                out.append((row_index, D) + buffer[N][2])
            out.append((row_index, I) + row)
        else:
            for place in range(at, held):
                if self.update_before:
                    out.append((row_index, UB) + buffer[place + 1][2] + (place + 1,))
                out.append((row_index, UA) + buffer[place][2] + (place + 1,))
            if held < N:
                out.append((row_index, I) + buffer[held][2] + (held + 1,))
        del buffer[N + 1:]  # rows past N + 1 never matter again
        return out


def batch_of(s: TopNStage, rows: list[tuple]) -> pa.RecordBatch:
    keys = [int(k).to_bytes(8, "little") for k, _, _ in rows]
    batch = pa.RecordBatch.from_arrays(
        [pa.array(keys, pa.binary()), pa.array([k % 128 for k, _, _ in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int64()), pa.array([r[1] for r in rows], pa.int64()),
         pa.array([r[2] for r in rows], pa.int64())], schema=s.spec.input_schema)
    return batch.replace_schema_metadata({b"accelerator.call": b"update", b"accelerator.state_budget": BUDGET})


def restored(s: TopNStage, rank_number: bool, update_before: bool) -> TopNStage:
    state = s.snapshot(pa.RecordBatch.from_pylist([]))
    fresh = stage(rank_number, update_before)
    fresh.restore(state.replace_schema_metadata({
        **state.schema.metadata, b"accelerator.call": b"restore", b"accelerator.state_budget": BUDGET,
        b"accelerator.key_group_start": b"0", b"accelerator.key_group_end": b"127"}))
    return fresh


@pytest.mark.parametrize("rank_number,update_before", [(True, True), (True, False), (False, False)])
def test_long_random_streams_emit_what_stock_emits_row_by_row(rank_number, update_before):
    rng = np.random.default_rng(11)
    s, model = stage(rank_number, update_before), StockModel(rank_number, update_before)
    # Rising prices on few keys push rows out of the top all the time: the store compacts.
    total = 12_000
    keys = np.where(rng.random(total) < 0.3, rng.integers(0, 5, total), rng.integers(5, 400, total))
    prices = rng.integers(0, 6, total) + np.arange(total) // 1000
    rows = [(int(k), int(p), i) for i, (k, p) in enumerate(zip(keys, prices))]
    compactions = 0
    start = 0
    while start < total:
        size = int(rng.choice([1, 7, 100, 1500]))
        chunk = rows[start:start + size]
        expected = [e for j, row in enumerate(chunk) for e in model.add(j, row)]
        before = s.state.rows.num_rows
        got = [tuple(r.values()) for r in s.process(batch_of(s, chunk)).to_pylist()]
        assert got == expected, f"batch at row {start}"
        compactions += s.state.rows.num_rows < before
        start += size
        if start >= total // 2 and start - size < total // 2:
            s = restored(s, rank_number, update_before)
    assert compactions > 0, f"the store never compacted (slack {row_store.COMPACT_SLACK})"
