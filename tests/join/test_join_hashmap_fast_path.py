"""The hashmap backend's fast path against the exact model `hash_order.HashMapOrder` (itself checked
against `java.util.HashMap` in test_hash_order_against_java.py).

`list_bins` claims: while no chain reaches 9 entries a map's order is its entries stably sorted by
bucket at its load capacity, and `overflowing` says exactly when a chain would reach 9 (a
`treeifyBin` resize below 64 buckets or a tree from 64 on). Random insertion histories with
crowds of hashes sharing a bucket at 16 to 256 buckets, cut into batches, check both claims. Then
the join stage itself, fed random batches of rows whose hashes crowd buckets (so some keys go
exact: resized by treeifyBin, treeified, restored into a small table that overflows), with
repeated rows, snapshots and restores split by key group, must answer row for row what a
row-at-a-time walk over one `HashMapOrder` per key and side emits."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from accelerator.exchange.key_groups import binary_row_hashes
from accelerator.join import list_bins
from accelerator.join.hash_order import HashMapOrder, expected_size_capacity, spread
from accelerator.join.stage import JoinStage

from test_join_hashmap_backend import _call, _key_group, _restore, _update, descriptor
from test_join_matches import L, R


def _crowd_hash(rng: random.Random, bits: int, bucket: int) -> int:
    """A hashCode whose spread hash has `bucket` in its low `bits` bits."""
    s = (rng.getrandbits(32) & ~((1 << bits) - 1) & 0xFFFFFFFF) | bucket
    return spread(s - (1 << 32) if s & 0x80000000 else s)  # spread is its own inverse


def _history(rng: random.Random, length: int) -> list[int]:
    """Distinct hash codes: random ones mixed with crowds sharing a bucket at 16, 32, 64 or 256."""
    crowds = [(bits, rng.getrandbits(bits)) for bits in rng.sample((4, 5, 6, 8), 2)]
    share = rng.choice((0.0, 0.1, 0.3, 0.6))
    out, seen = [], set()
    while len(out) < length:
        if rng.random() < share:
            h = _crowd_hash(rng, *rng.choice(crowds))
        else:
            h = rng.getrandbits(32) - (1 << 31)
        if h not in seen:
            seen.add(h)
            out.append(h)
    return out


def _put_reaches_nine(m: HashMapOrder, hash_code: int, item: int) -> bool:
    """Puts into the model; whether the put made a list chain of 9 (HashMap.putVal then calls
    treeifyBin)."""
    chain = len(m.bins.get(spread(hash_code) & (m.capacity - 1), ())) if m.capacity else 0
    m.put(hash_code, item)
    return chain >= list_bins.LONGEST_LIST


@pytest.mark.parametrize("seed", range(6))
def test_overflowing_says_exactly_when_a_chain_outgrows_a_list_and_list_maps_iterate_in_bucket_order(seed):
    rng = random.Random(seed)
    histories = fast = flagged = 0
    for _ in range(150):
        restored = rng.random() < 0.4
        start = expected_size_capacity(rng.randrange(1, 40)) if restored else 16
        hashes = _history(rng, rng.randrange(1, 300))
        m = HashMapOrder(start)
        cuts = sorted({0, len(hashes), *(rng.randrange(len(hashes)) for _ in range(rng.randrange(0, 6)))})
        histories += 1
        for before, after in zip(cuts, cuts[1:]):
            outgrew = False
            for i in range(before, after):
                outgrew |= _put_reaches_nine(m, hashes[i], i)
            spreads = list_bins.spread(np.array(hashes[:after], dtype=np.int64).astype(np.int32))
            said = list_bins.overflowing(np.array([start]), np.array([before]), np.array([after]),
                                         np.zeros(after, dtype=np.int64), np.arange(after), spreads)
            assert bool(said[0]) == outgrew, f"history of seed {seed}: {before} -> {after} entries from {start} buckets"
            if outgrew:
                flagged += 1
                break
            capacity = int(list_bins.load_capacity(np.array([start]), np.array([after]))[0])
            in_bucket_order = np.argsort(spreads.astype(np.int64) & (capacity - 1), kind="stable")
            np.testing.assert_array_equal(in_bucket_order, m.order())
            fast += 1
    assert flagged > 10 and fast > 100 and histories == 150



@pytest.mark.parametrize("seed", range(4))
def test_overflowing_answers_for_many_maps_at_once_what_each_model_does(seed):
    """Many maps in one call, as a batch's growing keys are checked: their entries interleaved,
    tables of other sizes side by side (small maps not checked, maps that do not grow a table)."""
    rng = random.Random(seed)
    starts, befores, afters, owners, ranks, spreads, outgrew = [], [], [], [], [], [], []
    for k in range(120):
        start = expected_size_capacity(rng.randrange(1, 40)) if rng.random() < 0.4 else 16
        hashes = _history(rng, rng.randrange(1, 200))
        before = rng.randrange(len(hashes))
        m = HashMapOrder(start)
        reached = [_put_reaches_nine(m, h, i) for i, h in enumerate(hashes)]
        if any(reached[:before]):
            continue  # the maps asked about hold list chains only at `before`
        starts.append(start)
        befores.append(before)
        afters.append(len(hashes))
        owners += [len(starts) - 1] * len(hashes)
        ranks += range(len(hashes))
        spreads += list(list_bins.spread(np.array(hashes, dtype=np.int64).astype(np.int32)))
        outgrew.append(any(reached[before:]))
    mixed = list(range(len(owners)))
    rng.shuffle(mixed)
    said = list_bins.overflowing(np.array(starts), np.array(befores), np.array(afters), np.array(owners)[mixed],
                                 np.array(ranks)[mixed], np.array(spreads, dtype=np.uint32)[mixed])
    assert said.tolist() == outgrew
    assert 10 < sum(outgrew) < len(outgrew) - 10

def _pool(rng: random.Random) -> tuple[list[bytes], dict[str, list[int]]]:
    """Binary rows of (STRING, BIGINT) shape, row i's long holding i (the stage's `a` and `b`
    columns carry the index), and crowds of rows sharing a bucket at 16 (split at 32), at 64 and at 256."""
    rows = []
    for i in range(40_000):
        rows.append(bytes(8) + i.to_bytes(8, "little") + rng.getrandbits(64).to_bytes(8, "little"))
    spreads = np.array([spread(int(h)) for h in binary_row_hashes(pa.array(rows, pa.binary()))]) & 0xFFFFFFFF
    crowds = {}
    for name, bits in (("split16", 4), ("bucket64", 6), ("bucket256", 8)):
        buckets = spreads & ((1 << bits) - 1)
        values, counts = np.unique(buckets, return_counts=True)
        members = np.flatnonzero(buckets == values[np.argmax(counts)])
        if name == "split16":  # both halves at 32 buckets, so a resize splits the chain
            members = np.concatenate([members[(spreads[members] & 16) == 0][:12], members[(spreads[members] & 16) != 0][:12]])
        crowds[name] = [int(i) for i in members[:60]]
    return rows, crowds


class _Walk:
    """Row at a time with one HashMapOrder per key and side, its items the rows' indices."""

    def __init__(self, hashes: np.ndarray):
        self.hashes = hashes
        self.maps: dict[tuple[int, str], HashMapOrder] = {}
        self.counts: dict[tuple[int, str], dict[int, int]] = {}

    def process(self, side: int, key: str, i: int) -> list[tuple[int, int]]:
        own = self.maps.setdefault((side, key), HashMapOrder())
        counts = self.counts.setdefault((side, key), {})
        if i not in counts:
            own.put(int(self.hashes[i]), i)
        counts[i] = counts.get(i, 0) + 1
        other = self.maps.get((1 - side, key))
        if other is None:
            return []
        held = self.counts[(1 - side, key)]
        return [pair for j in other.order().tolist() for pair in [(i, j) if side == L else (j, i)] * held[j]]

    def restore(self) -> None:
        for at, m in self.maps.items():
            restored = HashMapOrder.restored(m.size)
            for j in m.order().tolist():
                restored.put(int(self.hashes[j]), j)
            self.maps[at] = restored


def _stream(rng: random.Random, crowds: dict[str, list[int]], pool: int, length: int) -> list[tuple[int, str, int]]:
    """(side, key, row): per key a kind of rows, so some keys' maps stay lists and others do not."""
    keys = {f"k{i}": rng.choice(("few", "many", "split16", "bucket64", "bucket256")) for i in range(40)}
    stream = []
    for _ in range(length):
        key = rng.choice(list(keys))
        kind = keys[key]
        if stream and rng.random() < 0.15:
            row = rng.choice(stream)[2]
        elif kind == "few":
            row = rng.randrange(20)
        elif kind == "many" or rng.random() < 0.3:
            row = rng.randrange(100, pool)
        else:
            row = rng.choice(crowds[kind])
        stream.append((rng.choice((L, R)), key, row))
    return stream


@pytest.mark.parametrize("seed", range(4))
def test_the_stage_answers_as_a_row_at_a_time_walk_over_the_exact_model(seed):
    rng = random.Random(100 + seed)
    rows, crowds = _pool(rng)
    walk = _Walk(binary_row_hashes(pa.array(rows, pa.binary())))
    stream = _stream(rng, crowds, len(rows), 3000)
    stages, ranges = {0: JoinStage(descriptor())}, {0: (0, 127)}
    at = checked = restores = exact = listed = 0
    while at < len(stream):
        part = stream[at:at + rng.choice((1, 5, 40, 250, 700))]
        want = [(i, pair) for i, r in enumerate(part) for pair in walk.process(*r)]
        got = []
        for first, (lo, hi) in ranges.items():
            mine = [i for i, r in enumerate(part) if lo <= _key_group(r[1]) <= hi]
            got += [(mine[o[0]], o[1:]) for o in _update(stages[first], rows, [part[i] for i in mine])]
        got.sort(key=lambda g: g[0])  # stable: each row's joined rows keep the stage's order
        assert got == want, f"batch at {at} of seed {seed}"
        checked += len(want)
        for s in stages.values():
            for side in (L, R):
                exact += len(s.key_maps.maps[side])
                listed += int(((s.key_maps.size[side] > 12) & ~s.key_maps.exact[side]).sum())
        at += len(part)
        if rng.random() < 0.3:
            states = [_call(s, "snapshot", pa.RecordBatch.from_pylist([])) for s in stages.values()]
            state = pa.concat_tables([pa.Table.from_batches([b]) for b in states]).combine_chunks().to_batches()[0]
            split = rng.choice((128, rng.randrange(1, 128)))
            ranges = {0: (0, split - 1)} if split == 128 else {0: (0, split - 1), split: (split, 127)}
            stages = {first: _restore(state, lo, hi) for first, (lo, hi) in ranges.items()}
            walk.restore()
            restores += 1
    # Both paths ran: maps replayed exactly, and maps past one resize that stayed lists.
    assert checked > 10_000 and restores > 0 and exact > 0 and listed > 0
