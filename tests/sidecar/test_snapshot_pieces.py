"""A stateful stage's snapshot handed to the JVM in pieces (`accelerator.sidecar.snapshot_pieces`,
served by the generic `keyed_state.run_call`): the pieces cover the snapshot once, in order, each
within the bound (a larger single row alone), a key group that fits in a piece is never cut, the
answers say how many pieces there are and whether a piece's last key group goes on, and the
snapshot is taken once per checkpoint and dropped after its last piece or at any other call."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from accelerator.sidecar import keyed_state, snapshot_pieces, state_calls
from accelerator.sidecar.state_calls import CallError

BUDGET = str(1 << 30).encode()


def snapshot_batch(seed: int, rows: int, big_row: int | None = None) -> pa.RecordBatch:
    """Rows grouped by ascending key group (some groups large, some of one row), with values of
    random lengths; `big_row` gets a 5000-byte value."""
    random = np.random.default_rng(seed)
    key_groups = np.sort(random.choice(np.array([0, 1, 2, 5, 6, 9, 40, 41, 127]), size=rows,
                                       p=[0.3, 0.02, 0.2, 0.01, 0.2, 0.02, 0.15, 0.05, 0.05]))
    values = [bytes(random.integers(0, 256, size=int(random.integers(0, 200)), dtype=np.uint8)) for _ in range(rows)]
    if big_row is not None:
        values[big_row] = b"x" * 5000
    nulls = random.random(rows) < 0.1
    return pa.RecordBatch.from_arrays(
        [pa.array(key_groups, pa.int32()), pa.array(values, pa.binary()),
         pa.array(np.arange(rows), pa.int64(), mask=nulls)],
        schema=pa.schema([pa.field("$key_group", pa.int32(), nullable=False), pa.field("$key", pa.binary()),
                          pa.field("v", pa.int64())]).with_metadata({b"accelerator.state_format": b"3"}))


def check_cuts(batch: pa.RecordBatch, max_bytes: int) -> list[tuple[int, int]]:
    cuts = snapshot_pieces.cuts(batch, max_bytes)
    assert [first for first, _ in cuts] == [sum(rows for _, rows in cuts[:i]) for i in range(len(cuts))]
    assert sum(rows for _, rows in cuts) == batch.num_rows
    for first, rows in cuts:
        assert rows >= 1 or cuts == [(0, 0)]
        assert rows == 1 or batch.slice(first, rows).nbytes <= max_bytes, (first, rows)
    key_groups = batch.column("$key_group").to_numpy()
    starts = {first for first, _ in cuts}
    for group in np.unique(key_groups):
        rows = np.flatnonzero(key_groups == group)
        if batch.slice(int(rows[0]), len(rows)).nbytes <= max_bytes:
            assert not starts & set(range(int(rows[0]) + 1, int(rows[-1]) + 1)), f"key group {group} was cut"
    return cuts


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_bytes", [1, 300, 2000, 20_000, 1 << 30])
def test_pieces_cover_the_snapshot_once_in_order_within_the_bound_and_keep_key_groups_that_fit(seed, max_bytes):
    batch = snapshot_batch(seed, 1500, big_row=700)
    cuts = check_cuts(batch, max_bytes)
    if max_bytes == 1 << 30:
        assert cuts == [(0, batch.num_rows)]
    if max_bytes == 1:
        assert all(rows == 1 for _, rows in cuts)


def test_a_row_larger_than_the_bound_goes_alone_and_the_rows_around_it_fill_their_pieces():
    batch = snapshot_batch(3, 400, big_row=200)
    cuts = check_cuts(batch, 3000)
    assert (200, 1) in cuts
    assert max(rows for _, rows in cuts) > 10


def test_an_empty_snapshot_is_one_empty_piece_and_a_bound_below_one_byte_is_refused():
    assert check_cuts(snapshot_batch(0, 0), 100) == [(0, 0)]
    with pytest.raises(CallError, match="holds nothing"):
        snapshot_pieces.cuts(snapshot_batch(0, 5), 0)


class FakeState:
    """What `run_call` reads of a stage's state: its gauges."""
    entries = 7

    def nbytes(self) -> int:
        return 1234


class Calls:
    """A stage's calls whose snapshot is `batch`, counting how often it is taken."""

    def __init__(self, batch: pa.RecordBatch):
        self.batch = batch
        self.taken = 0
        self.calls = {"snapshot": self.snapshot, "update": lambda b: keyed_state.EMPTY}

    def snapshot(self, request: pa.RecordBatch) -> pa.RecordBatch:
        self.taken += 1
        return self.batch


def call(calls: Calls, state, name: str, **metadata: int) -> pa.RecordBatch:
    request = pa.RecordBatch.from_arrays([], schema=pa.schema([])).replace_schema_metadata(
        {state_calls.CALL: name.encode(), state_calls.STATE_BUDGET: BUDGET,
         **{f"accelerator.{k}".encode(): str(v).encode() for k, v in metadata.items()}})
    return keyed_state.run_call("t", "test", calls.calls, state, request)


def test_run_call_serves_the_pieces_of_one_snapshot_per_checkpoint_with_their_count_and_what_goes_on():
    batch = snapshot_batch(1, 2000)
    calls, state = Calls(batch), FakeState()
    cuts = snapshot_pieces.cuts(batch, 4000)
    assert len(cuts) > 5
    pieces = []
    for index in range(len(cuts)):
        answer = call(calls, state, "snapshot", snapshot_piece=index, snapshot_piece_bytes=4000)
        metadata = answer.schema.metadata
        assert metadata[state_calls.SNAPSHOT_PIECES] == str(len(cuts)).encode()
        assert metadata[b"accelerator.state_format"] == b"3", "the stage's own metadata stays"
        assert metadata[state_calls.STATE_ENTRIES] == b"7"
        first, rows = cuts[index]
        after = first + rows
        goes_on = after < batch.num_rows and batch.column(0)[after - 1].as_py() == batch.column(0)[after].as_py()
        assert metadata[state_calls.SNAPSHOT_CONTINUES] == (b"1" if goes_on else b"0")
        pieces.append(answer)
    assert calls.taken == 1, "taken once for the checkpoint"
    assert pa.Table.from_batches(pieces).replace_schema_metadata(None).equals(
        pa.Table.from_batches([batch]).replace_schema_metadata(None))
    assert any(p.schema.metadata[state_calls.SNAPSHOT_CONTINUES] == b"1" for p in pieces), "a key group spans pieces"
    with pytest.raises(CallError, match="snapshot piece 1 was asked for, but no snapshot is being handed over"):
        call(calls, state, "snapshot", snapshot_piece=1, snapshot_piece_bytes=4000)

    # The next checkpoint takes a new snapshot; a call between pieces ends the unfinished handover.
    call(calls, state, "snapshot", snapshot_piece=0, snapshot_piece_bytes=4000)
    assert calls.taken == 2
    call(calls, state, "update")
    with pytest.raises(CallError, match="no snapshot is being handed over"):
        call(calls, state, "snapshot", snapshot_piece=1, snapshot_piece_bytes=4000)
    call(calls, state, "snapshot", snapshot_piece=0, snapshot_piece_bytes=4000)
    with pytest.raises(CallError, match=f"the snapshot has {len(cuts)} pieces"):
        call(calls, state, "snapshot", snapshot_piece=len(cuts), snapshot_piece_bytes=4000)


def test_a_snapshot_without_a_piece_is_the_whole_state_as_before():
    batch = snapshot_batch(2, 300)
    answer = call(Calls(batch), FakeState(), "snapshot")
    assert answer.num_rows == 300 and state_calls.SNAPSHOT_PIECES not in answer.schema.metadata


def test_a_deferred_snapshot_makes_each_piece_when_it_is_asked_for_and_cuts_by_its_row_bytes():
    batch = snapshot_batch(3, 1500, big_row=900)
    # Each row's bytes as its own slice takes them (offsets and validity bytes counted per row: not
    # less than in a piece).
    row_bytes = np.array([batch.slice(i, 1).nbytes for i in range(batch.num_rows)], dtype=np.int64)
    made = []

    def rows(first: int, count: int) -> pa.RecordBatch:
        made.append((first, count))
        return batch.slice(first, count)

    deferred = snapshot_pieces.Deferred(batch.column("$key_group").to_numpy(), row_bytes, rows)
    calls, state = Calls(deferred), FakeState()
    cuts = snapshot_pieces.cuts(deferred, 4000)
    assert len(cuts) > 5 and any(rows == 1 for _, rows in cuts), "the 5000-byte row goes alone"
    pieces = []
    for index, (first, count) in enumerate(cuts):
        answer = call(calls, state, "snapshot", snapshot_piece=index, snapshot_piece_bytes=4000)
        assert made[-1] == (first, count), "made when asked for, not before"
        assert len(made) == index + 1
        assert count == 1 or answer.nbytes <= 4000
        pieces.append(answer)
    assert pa.Table.from_batches(pieces).replace_schema_metadata(None).equals(
        pa.Table.from_batches([batch]).replace_schema_metadata(None))
    key_groups = batch.column("$key_group").to_numpy()
    for (first, count), answer in zip(cuts, pieces):
        after = first + count
        goes_on = after < len(key_groups) and key_groups[after - 1] == key_groups[after]
        assert answer.schema.metadata[state_calls.SNAPSHOT_CONTINUES] == (b"1" if goes_on else b"0")
    # Without a piece, the whole snapshot is made at once.
    assert call(calls, state, "snapshot").num_rows == batch.num_rows and made[-1] == (0, batch.num_rows)
