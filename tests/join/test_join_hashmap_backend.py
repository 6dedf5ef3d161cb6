"""The join stage on the hashmap backend (`state.backend: hashmap`) against a row-at-a-time
oracle built on the real thing: per key and side a `java.util.HashMap<BinaryRowData, Integer>` in a
JVM (JPype), filled as stock's `InputSideHasNoUniqueKey` fills it (a new row put with count 1, a
repeated row's count raised), iterated for every row of the other side; a checkpoint and restore
is Flink's `MapSerializer` writing and reading each map. The binary rows are written by Flink's
`BinaryRowWriter`; a hot key gets hundreds of distinct rows, some chosen to share a bucket so bins
turn into trees. The stage sees random batches, snapshots and restores into one stage or split by
key group over two (a rescale), in one call or in calls cut by rows as the JVM cuts a large state."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.exchange.key_groups import binary_row_hashes
from accelerator.join.hash_order import spread
from accelerator.join.stage import JoinStage
from accelerator.sidecar.stages import DescriptorError

from test_join_matches import BUDGET, L, R, descriptor as rocksdb_descriptor

KEYS = ("hot", "a", "b", "c", "d")


def descriptor() -> dict:
    d = rocksdb_descriptor()
    d["state"]["backend"] = "hashmap"
    return d


@pytest.fixture(scope="module")
def rows(flink) -> list[bytes]:
    """Binary rows (STRING, BIGINT) as Flink writes them: row i holds i."""
    out = []
    for i in range(6000):
        row = flink.BinaryRowData(2)
        writer = flink.BinaryRowWriter(row)
        writer.writeString(0, flink.StringData.fromString("x" * (i % 11)))
        writer.writeLong(1, i * 0x9E3779B97F4A7C15 % (1 << 63))
        writer.complete()
        out.append(bytes(flink.BinarySegmentUtils.copyToBytes(row.getSegments(), row.getOffset(), row.getSizeInBytes())))
    return out


def _colliding(rows: list[bytes], bits: int, at_least: int) -> list[int]:
    spreads = np.array([spread(int(h)) for h in binary_row_hashes(pa.array(rows, pa.binary()))])
    buckets = spreads & ((1 << bits) - 1)
    values, counts = np.unique(buckets, return_counts=True)
    return [int(i) for i in np.flatnonzero(buckets == values[np.argmax(counts)])][:at_least]


def _stream(rng: random.Random, rows: list[bytes], length: int) -> list[tuple[int, str, int]]:
    """(side, key, row index): a hot key with hundreds of distinct rows on both sides, rows sharing a
    bucket at 256 buckets among them, other keys with a few rows each, and repeated rows."""
    crowd = _colliding(rows, 8, 40)
    stream = []
    for _ in range(length):
        side = rng.choice((L, R))
        key = "hot" if rng.random() < 0.5 else rng.choice(KEYS[1:])
        r = rng.random()
        if key == "hot" and r < 0.15:
            row = rng.choice(crowd)
        elif r < 0.3 and stream:
            row = rng.choice(stream)[2]
        else:
            row = rng.randrange(len(rows)) if key == "hot" else rng.randrange(12)
        stream.append((side, key, row))
    return stream


class _Oracle:
    """Stock's InputSideHasNoUniqueKey on HeapMapState, row at a time, with Java's own HashMap."""

    def __init__(self, flink, rows: list[bytes]):
        self.flink, self.rows = flink, rows
        self.maps: dict[tuple[int, str], object] = {}
        self.binary = {}

    def _row(self, i: int):
        if i not in self.binary:
            data = self.rows[i]
            row = self.flink.BinaryRowData(2)
            row.pointTo(self.flink.MemorySegmentFactory.wrap(self.flink.jpype.JArray(self.flink.jpype.JByte)(data)),
                        0, len(data))
            self.binary[i] = row
        return self.binary[i]

    def process(self, side: int, key: str, i: int) -> list[tuple[int, int]]:
        """The (left row, right row) pairs stock emits for this input row."""
        own = self.maps.setdefault((side, key), self.flink.HashMap())
        row = self._row(i)
        count = own.get(row)
        own.put(row, self.flink.Integer(1 if count is None else int(count) + 1))
        other = self.maps.get((1 - side, key))
        if other is None:
            return []
        out = []
        for entry in other.entrySet():
            j = self._index(entry.getKey())
            out += [(i, j) if side == L else (j, i)] * int(entry.getValue())
        return out

    def _index(self, row) -> int:
        return int(row.getLong(1) * pow(0x9E3779B97F4A7C15, -1, 1 << 63) % (1 << 63))

    def checkpoint_and_restore(self) -> None:
        serializer = self.flink.MapSerializer(self.flink.BinaryRowDataSerializer(2), self.flink.IntSerializer.INSTANCE)
        for at, m in list(self.maps.items()):
            out = self.flink.DataOutputSerializer(64)
            serializer.serialize(m, out)
            self.maps[at] = serializer.deserialize(self.flink.DataInputDeserializer(out.getCopyOfBuffer()))


def _key_group(key: str) -> int:
    return sum(key.encode()) % 128


def _call(s: JoinStage, name: str, batch: pa.RecordBatch, **extra: str) -> pa.RecordBatch:
    metadata = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    metadata.update({k.encode(): v.encode() for k, v in extra.items()})
    return s.process(batch.replace_schema_metadata(metadata))


def _update(s: JoinStage, rows: list[bytes], part: list[tuple[int, str, int]]) -> list[tuple[int, int, int]]:
    """(batch row, left row index, right row index) of each joined row the stage answers, in order."""
    def column(side, make, arrow_type):
        return pa.array([make(r) if r[0] == side else None for r in part], arrow_type)
    batch = pa.RecordBatch.from_arrays(
        [pa.array([r[1].encode() for r in part], pa.binary()), pa.array([_key_group(r[1]) for r in part], pa.int32()),
         pa.array([r[0] for r in part], pa.int8()), pa.array([rows[r[2]] for r in part], pa.binary()),
         column(L, lambda r: r[1], pa.string()), column(L, lambda r: r[2], pa.int64()),
         column(R, lambda r: r[1], pa.string()), column(R, lambda r: str(r[2]), pa.string())],
        schema=s.spec.input_schema)
    answer = _call(s, "update", batch).to_pylist()
    return [(a["$row"], a["a"], int(a["b"])) for a in answer]


def _restore(state: pa.RecordBatch, first: int, last: int, per_call: int = 1 << 30) -> JoinStage:
    """A stage restored from the key groups `first`..`last` of `state` as the JVM restores them: in
    calls of at most `per_call` rows, cut by rows (a key's rows may straddle calls), each saying
    whether its last key group goes on in the next call."""
    s = JoinStage(descriptor())
    part = state.filter(pa.compute.and_(pa.compute.greater_equal(state.column("$key_group"), first),
                                        pa.compute.less_equal(state.column("$key_group"), last)))
    groups = part.column("$key_group").to_numpy()
    for at in range(0, max(part.num_rows, 1), per_call):
        end = min(at + per_call, part.num_rows)
        continues = end < part.num_rows and groups[end] == groups[end - 1]
        _call(s, "restore", part.slice(at, end - at),
              **{"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
                 "accelerator.key_group_start": str(first), "accelerator.key_group_end": str(last),
                 "accelerator.restore_continues": "1" if continues else "0"})
    return s


@pytest.mark.parametrize("seed", range(4))
def test_the_stage_emits_in_the_order_of_javas_hash_maps_across_batches_and_restores(flink, rows, seed):
    rng = random.Random(seed)
    stream = _stream(rng, rows, 1500)
    oracle = _Oracle(flink, rows)
    stages = {g: JoinStage(descriptor()) for g in [0]}
    ranges = {0: (0, 127)}
    at, checked, restores, trees = 0, 0, 0, 0
    while at < len(stream):
        size = rng.choice((1, 7, 60, 300))
        part = stream[at:at + size]
        want = [(i, pair) for i, r in enumerate(part) for pair in oracle.process(*r)]
        got = []
        for first, (lo, hi) in ranges.items():
            mine = [i for i, r in enumerate(part) if lo <= _key_group(r[1]) <= hi]
            got += [(mine[o[0]], o[1:]) for o in _update(stages[first], rows, [part[i] for i in mine])]
        got.sort(key=lambda g: g[0])  # stable: each row's joined rows keep the stage's order
        assert got == [(i, (a, b)) for i, (a, b) in want], f"batch at {at} of seed {seed}"
        checked += len(want)
        trees += sum(len(m.roots) for s in stages.values() for maps in s.key_maps.maps for m in maps.values())
        at += size
        if rng.random() < 0.25:
            states = [_call(s, "snapshot", pa.RecordBatch.from_pylist([])) for s in stages.values()]
            state = pa.concat_tables([pa.Table.from_batches([b]) for b in states]).combine_chunks().to_batches()[0]
            split = rng.choice((128, rng.randrange(1, 128)))
            ranges = {0: (0, split - 1)} if split == 128 else {0: (0, split - 1), split: (split, 127)}
            per_call = rng.choice((1, 7, 60, 1 << 30))
            stages = {first: _restore(state, lo, hi, per_call) for first, (lo, hi) in ranges.items()}
            oracle.checkpoint_and_restore()
            restores += 1
    assert checked > 20_000 and restores > 0 and trees > 0


def test_a_descriptor_without_a_known_backend_is_refused():
    d = descriptor()
    d["state"]["backend"] = "forst"
    with pytest.raises(DescriptorError, match="forst"):
        JoinStage(d)
