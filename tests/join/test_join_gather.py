"""`join/gather` takes held rows batch by batch (and a column chunk by chunk): it must answer what
pyarrow's own `take` answers, for any batches, order of places, repeats and column types."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from accelerator.formats import timestamps
from accelerator.join import gather


def _chunked_table(rng: np.random.Generator, chunks: int) -> pa.Table:
    parts = []
    for _ in range(chunks):
        n = int(rng.integers(0, 6))
        parts.append(pa.table({
            "order": pa.array([rng.bytes(int(rng.integers(0, 30))) for _ in range(n)], pa.binary()),
            "s": pa.array([None if rng.random() < 0.2 else "x" * int(rng.integers(0, 9)) for _ in range(n)], pa.string()),
            "t": timestamps.from_parts(rng.integers(0, 1 << 40, n), np.zeros(n, dtype=np.int32), rng.random(n) > 0.2),
            "k": pa.array(rng.integers(0, 100, n), pa.int64())}))
    return pa.concat_tables(parts)


@pytest.mark.parametrize("seed", range(20))
def test_rows_are_pyarrows_take_for_any_chunking_and_places(seed):
    rng = np.random.default_rng(seed)
    table = _chunked_table(rng, int(rng.integers(1, 12)))
    if table.num_rows == 0:
        assert gather.rows([], np.zeros(0, np.int64), np.zeros(0, np.int64), ["k"], table.select(["k"]).schema).num_rows == 0
        return
    for count in (0, 1, 3, table.num_rows // 5, table.num_rows, 3 * table.num_rows):
        at = rng.integers(0, table.num_rows, count)
        if rng.random() < 0.5:
            at.sort()
        expected = table.take(pa.array(at, pa.int64())).combine_chunks()
        batches = [b for b in table.to_batches() if b.num_rows]
        ends = np.cumsum([b.num_rows for b in batches]).astype(np.int64)
        got = gather.rows(batches, ends, at, table.schema.names, table.schema)
        assert got.equals(expected)
        assert all(c.num_chunks == 1 for c in got.columns) or got.num_rows == 0
        names = ["k", "order"]
        assert gather.rows(batches, ends, at, names, table.select(names).schema).equals(expected.select(names))
        assert gather.column(table.column("order"), at).equals(expected.column("order").combine_chunks())
