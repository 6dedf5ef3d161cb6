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


def _binary_chunks(rng: np.random.Generator) -> list[pa.Array]:
    """Binary arrays without NULLs, some empty, some of empty values, some sliced (offsets and data
    not at 0), some of several kB a value."""
    chunks = []
    for _ in range(int(rng.integers(1, 10))):
        longest = int(rng.choice([1, 30, 5000]))
        values = [rng.bytes(int(rng.integers(0, longest))) for _ in range(int(rng.integers(0, 8)))]
        array = pa.array([b"pad"] + values + [b"tail"], pa.binary())
        chunks.append(array.slice(1, len(values)) if rng.random() < 0.5 else pa.array(values, pa.binary()))
    return chunks


@pytest.mark.parametrize("seed", range(30))
def test_binary_is_the_take_it_replaced_for_any_arrays_and_places(seed):
    """The native gather of a binary column (`gather.binary`) against what `gather.rows` answered
    for the snapshot's and the lookups' `$order` before it: pyarrow's take over the arrays."""
    rng = np.random.default_rng(seed)
    chunks = _binary_chunks(rng)
    ends = np.cumsum([len(c) for c in chunks]).astype(np.int64)
    rows = int(ends[-1])
    if rows == 0:
        assert len(gather.binary(chunks, ends, np.zeros(0, np.int64))) == 0
        return
    batches = [pa.RecordBatch.from_arrays([c], names=["order"]) for c in chunks]
    schema = pa.schema([pa.field("order", pa.binary())])
    for count in (0, 1, 3, rows // 3, rows, 3 * rows):
        at = rng.integers(0, rows, count)
        if rng.random() < 0.5:
            at.sort()
        got = gather.binary(chunks, ends, at)
        got.validate(full=True)
        assert got.equals(gather.rows(batches, ends, at, ["order"], schema).column("order").combine_chunks())
        assert got.equals(pa.chunked_array(chunks, pa.binary()).take(pa.array(at, pa.int64())).combine_chunks())


def test_binary_refuses_a_place_past_the_rows_and_a_null_value():
    chunks = [pa.array([b"a", b"b"], pa.binary()), pa.array([b"c", None], pa.binary())]
    ends = np.array([2, 4], dtype=np.int64)
    assert gather.binary(chunks, ends, np.array([2, 0])).to_pylist() == [b"c", b"a"]
    with pytest.raises(ValueError, match="names array 2, of 2 arrays"):
        gather.binary(chunks, ends, np.array([4]))
    with pytest.raises(ValueError, match="is NULL"):
        gather.binary(chunks, ends, np.array([3]))
