"""A join side's row index (`row_index`, `SideRows.places` / `add`) against a dict of the rows'
bytes: each row's place and first arrival, counts and the held table, with the 64-bit row hashes
forced to collide (all rows on 1 or 2 values) as well as not; `add` takes over the lookup the
stage just made for the same rows; and the hash depends on the slot and bytes only."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

import accelerator.join.state as join_state
from accelerator.join import row_index
from accelerator.join.state import SLOT, SideRows


def _model_places(held: dict[tuple[int, bytes], int], slots, orders) -> tuple[list[int], list[bool]]:
    """Each row's place in a dict of (slot, bytes) -> place: a new row after the held ones, in order
    of first arrival."""
    places, first, new = [], [], {}
    for key in zip(slots, orders):
        if key in held:
            places.append(held[key])
            first.append(False)
        else:
            first.append(key not in new)
            places.append(new.setdefault(key, len(held) + len(new)))
    return places, first


@pytest.mark.parametrize("values", [1, 2, 1 << 64])
def test_the_row_index_answers_as_a_dict_of_the_rows_bytes_when_hashes_collide(monkeypatch, values):
    hashes = row_index.row_key_hashes
    monkeypatch.setattr(join_state, "row_key_hashes",
                        lambda slots, orders: hashes(slots, orders) % np.uint64(values) if values < 1 << 64
                        else hashes(slots, orders))
    rng = random.Random(values)
    schema = pa.schema([pa.field("v", pa.int64())])
    side, held, counts = SideRows(schema), {}, {}
    for _ in range(60):
        n = rng.choice((1, 5, 40))
        slots = [rng.randrange(4) for _ in range(n)]
        orders = [bytes(rng.randrange(3) for _ in range(rng.randrange(3))) for _ in range(n)]
        want_places, want_first = _model_places(held, slots, orders)
        rows = pa.table({SLOT: pa.array(slots, pa.int64()), "$order": pa.array(orders, pa.binary()),
                         "v": pa.array(range(n), pa.int64())}).cast(side.schema)
        if rng.random() < 0.5:  # as the stage does: look up, then add the same rows (no second lookup)
            places, first = side.places(np.array(slots, dtype=np.int64), pa.array(orders, pa.binary()))
            assert (places.tolist(), first.tolist()) == (want_places, want_first)
        side.add(rows, np.ones(n, dtype=np.int64))
        for key, place in zip(zip(slots, orders), want_places):
            held.setdefault(key, place)
            counts[place] = counts.get(place, 0) + 1
        assert side.count.tolist() == [counts[p] for p in range(len(held))]
        assert list(zip(side.table.column(SLOT).to_pylist(), side.table.column("$order").to_pylist())) == \
            sorted(held, key=held.get)
        at = np.array([rng.randrange(len(held)) for _ in range(rng.choice((0, 3, 30)))], dtype=np.int64)
        assert side.take(at).equals(side.table.take(pa.array(at, pa.int64())).combine_chunks())
    assert len(held) > 20 and len(side.table.column(SLOT).chunks) < 20  # small held batches were combined


def test_a_lookup_is_reused_by_add_only_for_the_same_rows(monkeypatch):
    side = SideRows(pa.schema([pa.field("v", pa.int64())]))
    rows = pa.table({SLOT: pa.array([1, 1], pa.int64()), "$order": pa.array([b"a", b"b"]),
                     "v": pa.array([0, 1], pa.int64())}).cast(side.schema)
    side.places(np.array([1], dtype=np.int64), pa.array([b"z"]))  # other rows: add must look its own up
    side.add(rows, np.ones(2, dtype=np.int64))
    assert side.table.column("$order").to_pylist() == [b"a", b"b"]
    side.places(np.array([1, 1], dtype=np.int64), pa.array([b"b", b"c"]))
    calls = []
    monkeypatch.setattr(join_state, "row_key_hashes", lambda *a: calls.append(a) or row_index.row_key_hashes(*a))
    again = pa.table({SLOT: pa.array([1, 1], pa.int64()), "$order": pa.array([b"b", b"c"]),
                      "v": pa.array([2, 3], pa.int64())}).cast(side.schema)
    side.add(again, np.ones(2, dtype=np.int64))
    assert calls == [] and side.count.tolist() == [1, 2, 1]


def test_row_key_hashes_depend_on_slot_and_bytes_not_on_how_the_array_is_laid_out():
    rng = np.random.default_rng(5)
    orders = pa.array([rng.bytes(int(n)) for n in rng.integers(0, 40, 50_000)], pa.binary())
    slots = rng.integers(0, 1000, len(orders))
    distinct = pa.table({"s": slots, "o": orders}).group_by(["s", "o"]).aggregate([]).num_rows
    hashes = row_index.row_key_hashes(slots, orders)
    assert len(np.unique(hashes)) == distinct
    chunked = pa.chunked_array([orders.slice(0, 1000), orders.slice(1000)])
    assert (row_index.row_key_hashes(slots, chunked) == hashes).all()
    assert (row_index.row_key_hashes(slots[500:900], orders.slice(500, 400)) == hashes[500:900]).all()
    assert (row_index.row_key_hashes(slots + 1, orders) != hashes).mean() > 0.999
    assert row_index.row_key_hashes(np.array([1, 1]), pa.array([b"", b"\x00"])).tolist()[0] != \
        row_index.row_key_hashes(np.array([1]), pa.array([b"\x00"])).tolist()[0]
