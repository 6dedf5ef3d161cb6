"""The hashmap backend's order model (`accelerator.join.hash_order`) against the real thing: a
`java.util.HashMap<BinaryRowData, Integer>` in a JVM (JPype) filled with binary rows Flink's own
`BinaryRowWriter` builds, as stock's `InputSideHasNoUniqueKey` fills one per join key and side.

Random histories of inserts (repeated rows included, which change nothing) mix rows of random
hashes with rows chosen to share a bucket at capacity 64, 128 or 256, so bins turn into red-black
trees, grow, split, untreeify and treeify again; at random points the map is written and read back
by Flink's `MapSerializer` (a heap checkpoint and restore: `newHashMapWithExpectedSize(n)` refilled
in iteration order) and the model restored likewise. After every few inserts the model's order must
be the Java map's iteration order, and every row's hash must be `BinaryRowData.hashCode()`.
"""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from accelerator.exchange.key_groups import binary_row_hashes
from accelerator.join.hash_order import HashMapOrder, expected_size_capacity, spread

_POOL = 24_000


@pytest.fixture(scope="module")
def pool(flink):
    """Binary rows (BIGINT, STRING) as Flink writes them, their bytes and their Java hashCode."""
    rng = random.Random(19)
    rows, data, java_hashes = [], [], []
    for i in range(_POOL):
        row = flink.BinaryRowData(2)
        writer = flink.BinaryRowWriter(row)
        writer.writeLong(0, rng.randrange(-2**63, 2**63))
        if i % 5:
            writer.writeString(1, flink.StringData.fromString("s" * rng.randrange(0, 20)))
        else:
            writer.setNullAt(1)
        writer.complete()
        rows.append(row)
        data.append(bytes(flink.BinarySegmentUtils.copyToBytes(row.getSegments(), row.getOffset(),
                                                               row.getSizeInBytes())))
        java_hashes.append(int(row.hashCode()))
    return rows, data, np.array(java_hashes, dtype=np.int32)


def test_row_hashes_are_binary_row_data_hash_codes(pool):
    _, data, java_hashes = pool
    assert len({len(d) for d in data}) > 3  # rows of several lengths, NULL strings among them
    np.testing.assert_array_equal(binary_row_hashes(pa.array(data, pa.binary())), java_hashes)


def test_maps_made_by_new_hash_map_with_expected_size_iterate_as_the_model(flink):
    """For every n up to 200: newHashMapWithExpectedSize(n) filled with n Integer keys (hashCode =
    the value, so keys that share low bits share buckets) iterates as the model's restored map,
    which starts from expected_size_capacity(n) and grows by Java's rules."""
    rng = random.Random(7)
    for n in range(0, 200):
        keys = rng.sample(range(1 << 12), n)
        java_map, model = flink.CollectionUtil.newHashMapWithExpectedSize(n), HashMapOrder.restored(n)
        for k in keys:
            java_map.put(flink.Integer(k), flink.Integer(k))
            model.put(k, k)
        assert model.order().tolist() == [int(v) for v in java_map.values()], n
    assert [expected_size_capacity(n) for n in range(9)] == [1, 2, 4, 4, 8, 8, 8, 16, 16]


def _buckets(hashes: np.ndarray, bits: int) -> dict[int, list[int]]:
    spreads = np.array([spread(int(h)) for h in hashes], dtype=np.int64)
    low = spreads & ((1 << bits) - 1)
    groups: dict[int, list[int]] = {}
    for i, b in enumerate(low):
        groups.setdefault(int(b), []).append(i)
    return groups


def _history(rng: random.Random, hashes: np.ndarray, length: int) -> list[int]:
    """Row indices to put: runs of rows sharing a bucket at 64, 128 or 256 buckets, random rows,
    and repeats of rows already put."""
    colliding = [sorted(g, key=lambda _: rng.random()) for bits in (6, 7, 8) for g in _buckets(hashes, bits).values()
                 if len(g) >= 20]
    rng.shuffle(colliding)
    history: list[int] = []
    groups = colliding[:rng.randrange(1, 4)]
    while len(history) < length:
        r = rng.random()
        if r < 0.5 and groups:
            g = rng.choice(groups)
            if g:
                history.append(g.pop())
        elif r < 0.8:
            history.append(rng.randrange(len(hashes)))
        elif history:
            history.append(rng.choice(history))
    return history


def _serialize_round_trip(flink, m):
    """A heap checkpoint and restore of one map state value: MapSerializer writes the map in
    iteration order and reads it into newHashMapWithExpectedSize(n)."""
    serializer = flink.MapSerializer(flink.BinaryRowDataSerializer(2), flink.IntSerializer.INSTANCE)
    out = flink.DataOutputSerializer(64)
    serializer.serialize(m, out)
    return serializer.deserialize(flink.DataInputDeserializer(out.getCopyOfBuffer()))


@pytest.mark.parametrize("seed", range(12))
def test_the_model_iterates_as_javas_hash_map(flink, pool, seed):
    rows, _, hashes = pool
    rng = random.Random(seed)
    history = _history(rng, hashes, rng.choice([40, 200, 700]))
    java_map = flink.HashMap()
    model = HashMapOrder()
    held: set[int] = set()
    trees = 0
    for step, i in enumerate(history):
        if i not in held:
            held.add(i)
            java_map.put(rows[i], flink.Integer(i))
            model.put(int(hashes[i]), i)
        if rng.random() < 0.02:
            java_map = _serialize_round_trip(flink, java_map)
            restored = HashMapOrder.restored(len(held))
            for item in model.order():
                restored.put(int(hashes[item]), int(item))
            model = restored
        if step % 7 == 0 or step == len(history) - 1:
            trees = max(trees, len(model.roots))
            assert model.order().tolist() == [int(v) for v in java_map.values()], f"step {step} of seed {seed}"
    if len(held) > 100:
        assert trees > 0  # the colliding rows made tree bins


def test_a_restore_of_few_rows_changes_the_order_as_javas_does(flink, pool):
    """With 6 rows or fewer the restored map has fewer than 16 buckets: the order after the restore
    is not the order before, in Java as in the model."""
    rows, _, hashes = pool
    changed = 0
    for start in range(0, 600, 6):
        items = list(range(start, start + 6))
        java_map, model = flink.HashMap(), HashMapOrder()
        for i in items:
            java_map.put(rows[i], flink.Integer(i))
            model.put(int(hashes[i]), i)
        before = model.order().tolist()
        java_map = _serialize_round_trip(flink, java_map)
        restored = HashMapOrder.restored(len(items))
        for i in before:
            restored.put(int(hashes[i]), i)
        assert restored.order().tolist() == [int(v) for v in java_map.values()]
        changed += restored.order().tolist() != before
    assert changed > 10
