"""The key table every stateful stage numbers its keys with (`KeyIds`, and `KeySlots` for the group
aggregate, deduplication, Top-N and the join), against a plain-Python model that numbers one key at
a time: a new key takes the most recently freed number left, else the next fresh one, in the order
keys first appear in a batch. Snapshots list keys in slot order within a key group and restore
numbers them in snapshot order, so this numbering is part of the state's format."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pyarrow as pa
import pytest

from accelerator.groupagg.stage import GroupAggStage
from accelerator.sidecar import key_ids
from accelerator.sidecar.key_ids import KeyIds
from accelerator.sidecar.key_slots import KeySlots


class ModelSlots:
    """One key at a time: a dict from key to slot, a free list popped from its end, slots made when
    the free list is empty, the capacity doubling from 64 when every slot is in use."""

    def __init__(self):
        self.slot_of: dict[bytes, int] = {}
        self.key_of: dict[int, bytes] = {}
        self.key_group: dict[int, int] = {}
        self.free_list: list[int] = []
        self.made = 0
        self.capacities = [64]

    def slots(self, keys: list[bytes], key_groups: list[int]) -> tuple[list[int], list[bool]]:
        slots, created, new = [], [], set()
        for key, group in zip(keys, key_groups):
            if key not in self.slot_of:
                if self.free_list:
                    slot = self.free_list.pop()
                else:
                    slot, self.made = self.made, self.made + 1
                    if self.made > self.capacities[-1]:
                        self.capacities.append(2 * self.capacities[-1])
                self.slot_of[key], self.key_of[slot], self.key_group[slot] = slot, key, group
                new.add(key)
            slots.append(self.slot_of[key])
            created.append(key in new)
        return slots, created

    def free(self, slots: list[int]) -> None:
        for slot in slots:
            del self.slot_of[self.key_of.pop(slot)]
            self.free_list.append(slot)


def _binary(keys: list[bytes]) -> pa.Array:
    return pa.array(keys, pa.binary())


def _names(rng: np.random.Generator, alphabet: int, widths: str) -> list[bytes]:
    """`alphabet` keys: of varying lengths, all 16 bytes (a BinaryRowData of one BIGINT), or 16
    bytes but a few of 24 (found first by binary search, then by the dict)."""
    if widths == "varying":
        return [b"k%d" % i + b"x" * int(rng.integers(0, 40)) for i in range(alphabet)]
    # As Flink writes them: 8 bytes of header (no NULL field), then the long.
    fixed = [bytes(8) + int(i).to_bytes(8, "little") for i in rng.permutation(1 << 20)[:alphabet]]
    if widths == "fixed":
        return fixed
    return fixed[:-5] + [int(i).to_bytes(24, "big") for i in range(5)]


def _random_batches(seed: int, batches: int, alphabet: int, widths: str = "varying"):
    """Batches of keys drawn with repeats from `alphabet` keys, and after each batch some held
    slots to free, in random order."""
    rng = np.random.default_rng(seed)
    names = _names(rng, alphabet, widths)
    for _ in range(batches):
        size = int(rng.integers(0, 300))
        keys = [names[i] for i in rng.integers(0, alphabet, size)]
        groups = [int(g) for g in rng.integers(0, 128, size)]
        yield keys, groups, rng


@pytest.mark.parametrize("widths", ["varying", "fixed", "mixed"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_slots_across_batches_with_repeats_frees_and_reuse_are_the_models(seed, widths):
    capacities = []
    table, model = KeySlots(capacities.append), ModelSlots()
    for keys, groups, rng in _random_batches(seed, 60, 400, widths):
        slots, created = table.slots(_binary(keys), np.array(groups, dtype=np.int32))
        want_slots, want_created = model.slots(keys, groups)
        assert slots.tolist() == want_slots
        assert created.tolist() == want_created
        live = sorted(model.key_of)
        assert table.live_slots().tolist() == live
        assert table.keys(np.array(live, dtype=np.int64)).to_pylist() == [model.key_of[s] for s in live]
        assert table.key_group[live].tolist() == [model.key_group[s] for s in live]
        assert table.entries == len(model.slot_of)
        doomed = rng.permutation(live)[:int(rng.integers(0, len(live) + 1))].tolist()
        table.free(np.array(doomed, dtype=np.int64))
        model.free(doomed)
        assert all(not table.holds(model_key) for model_key in [k for k in keys if k not in model.slot_of])
    # The stage's columns grow to the model's capacities (a batch of many new keys may skip one).
    assert capacities[-1] == model.capacities[-1] and set(capacities) <= set(model.capacities)
    assert capacities == sorted(set(capacities)) and len(capacities) > 2


@pytest.mark.parametrize("widths", ["varying", "fixed", "mixed"])
@pytest.mark.parametrize("seed", [5, 6])
def test_key_ids_number_as_the_model_and_find_only_held_keys(seed, widths):
    table, model = KeyIds(), ModelSlots()
    for keys, groups, rng in _random_batches(seed, 40, 300, widths):
        assert table.ids(_binary(keys)).tolist() == model.slots(keys, groups)[0]
        probe = keys[:5] + [b"never held", bytes(8) + (1 << 40).to_bytes(8, "little")]
        assert table.find(_binary(probe)).tolist() == [model.slot_of.get(k, -1) for k in probe]
        live = sorted(model.key_of)
        doomed = rng.permutation(live)[:int(rng.integers(0, len(live) + 1))].tolist()
        table.free(np.array(doomed, dtype=np.int64))
        model.free(doomed)
        assert len(table) == len(model.slot_of)


def test_new_keys_are_numbered_in_first_appearance_order_after_held_ones_and_reuse_the_last_freed_first():
    table = KeySlots(lambda capacity: None)
    table.slots(_binary([b"a", b"b", b"c", b"d", b"e"]), np.arange(5, dtype=np.int32))
    table.free(np.array([3, 1, 2], dtype=np.int64))  # d, b, c
    slots, created = table.slots(_binary([b"a", b"z", b"a", b"y", b"x", b"w", b"z"]), np.arange(7, dtype=np.int32))
    # z takes the last freed (2), y the one before (1), x the first freed (3), w the next fresh (5).
    assert slots.tolist() == [0, 2, 0, 1, 3, 5, 2]
    assert created.tolist() == [False, True, False, True, True, True, True]
    # Each new slot keeps the key group of its key's first row.
    assert table.key_group[[2, 1, 3, 5]].tolist() == [1, 3, 4, 5]


def test_a_null_key_is_refused_and_an_empty_batch_makes_nothing():
    table = KeySlots(lambda capacity: None)
    with pytest.raises(ValueError, match="NULL"):
        table.slots(_binary([b"a", None]), np.zeros(2, dtype=np.int32))
    slots, created = table.slots(_binary([]), np.zeros(0, dtype=np.int32))
    assert len(slots) == len(created) == table.entries == 0


def test_first_rows_do_not_depend_on_the_dictionary_order():
    # Arrow's order (first appearance) and any other order of the distinct keys give the rows
    # where each one first appears.
    assert key_ids._first_rows(np.array([0, 1, 0, 2, 1, 3], dtype=np.int32), 4).tolist() == [0, 1, 3, 5]
    assert key_ids._first_rows(np.array([2, 0, 2, 1, 3, 0], dtype=np.int32), 4).tolist() == [1, 3, 0, 4]


def _group_agg() -> GroupAggStage:
    return GroupAggStage({
        "name": "t", "keys": [{"name": "k", "type": "VARCHAR(2147483647)"}],
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}, {"name": "x", "type": "BIGINT"}]},
        "aggregates": [{"function": "sum", "arg": "x", "acc": "BIGINT", "emit": True}],
        "generate_update_before": True,
        "output": {"fields": [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "v0", "type": "BIGINT"}]},
        "state": {"format": 1, "fingerprint": "ab" * 32}})


def _call(stage: GroupAggStage, call: str, batch: pa.RecordBatch) -> pa.RecordBatch:
    metadata = {**(batch.schema.metadata or {}), b"accelerator.call": call.encode(),
                b"accelerator.state_budget": str(1 << 30).encode(),
                b"accelerator.key_group_start": b"0", b"accelerator.key_group_end": b"127"}
    return stage.process(batch.replace_schema_metadata(metadata))


def test_a_snapshot_lists_keys_in_the_models_slot_order_and_restores_to_the_models_slots():
    stage, model = _group_agg(), ModelSlots()
    rng = np.random.default_rng(9)
    keys = [b"k%d" % i for i in rng.integers(0, 500, 3000)]
    groups = [sum(k) % 7 for k in keys]
    batch = pa.RecordBatch.from_arrays([_binary(keys), pa.array(groups, pa.int32()), pa.array(range(3000), pa.int64())],
                                       schema=stage.spec.input_schema)
    _call(stage, "update", batch)
    model.slots(keys, groups)
    snapshot = _call(stage, "snapshot", pa.RecordBatch.from_arrays([], schema=pa.schema([])))
    # Grouped by key group, in slot order within one.
    assert snapshot.column("$key").to_pylist() == [model.key_of[s] for s in
                                                   sorted(model.key_of, key=lambda s: (model.key_group[s], s))]
    restored, restored_model = _group_agg(), ModelSlots()
    _call(restored, "restore", snapshot)
    want, _ = restored_model.slots(snapshot.column("$key").to_pylist(), snapshot.column("$key_group").to_pylist())
    slots, created = restored.state.key_slots.slots(snapshot.column("$key"), snapshot.column("$key_group").to_numpy())
    assert slots.tolist() == want and not created.any()
    assert _call(restored, "snapshot", pa.RecordBatch.from_arrays([], schema=pa.schema([]))).equals(snapshot)


@pytest.mark.parametrize("width", [16, 208])
def test_nbytes_follows_the_memory_the_keys_take_before_and_after_frees(width):
    keys = [b"%08d" % i + b"v" * (width - 8) for i in range(20_000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        table = KeySlots(lambda capacity: None)
        for start in range(0, len(keys), 1000):
            table.slots(_binary(keys[start:start + 1000]), np.zeros(1000, dtype=np.int32))
        held, estimate = tracemalloc.get_traced_memory()[0] - before, table.nbytes()
        table.free(np.arange(15_000, dtype=np.int64))
        held_after, estimate_after = tracemalloc.get_traced_memory()[0] - before, table.nbytes()
    finally:
        tracemalloc.stop()
    assert 0.9 * held <= estimate <= 1.5 * held
    assert 0.9 * held_after <= estimate_after <= 1.5 * held_after
    assert held_after < 0.75 * held  # the freed keys' memory went
