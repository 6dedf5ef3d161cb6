"""A join stage whose state outgrows its budget spills its held rows to Arrow files and reads them
back memory-mapped (docs/design/stateful-joins.md, "State memory"): under a budget just above what
its row index, counts and key maps take, so nearly every batch spills, it answers what stock Flink
2.2.1 emits (the Java HashMap oracle on the hashmap backend, the row-at-a-time rules on RocksDB,
outer joins included) and exactly what a stage that never spills answers, writes the same
snapshots, restores from a snapshot taken while spilled (also with row hashes forced to collide),
and names and removes its files."""

from __future__ import annotations

import logging
import os
import random
import re
import subprocess

import numpy as np
import pyarrow as pa
import pytest

import accelerator.join.state as join_state
from accelerator.join import row_index, spill
from accelerator.join.stage import JoinStage
from accelerator.sidecar.keyed_state import StateBudgetError

from tests.join import test_join_hashmap_backend as hashmap_tests
from tests.join import test_join_matches as matches_tests
from tests.join import test_join_outer as outer_tests
from tests.join.test_join_hashmap_backend import rows  # noqa: F401  (the fixture)

BUDGET = b"accelerator.state_budget"
RESTORE = outer_tests.RESTORE


class SpilledAndNot:
    """Two stages of one descriptor fed the same calls: `free` under an unbounded budget (it never
    spills), `tight` under one `room` bytes above what `free` holds besides its rows after the call
    (the same row index, counts and key maps as `tight`'s), so `tight` spills its rows whenever it
    holds more than `room` bytes of them. `process` checks both answer alike and answers `tight`'s."""

    def __init__(self, descriptor: dict, directory, rng: random.Random, rooms: tuple[int, ...] = (0, 0, 300, 3000)):
        self.free, self.tight = JoinStage(descriptor), JoinStage(descriptor)
        self.spec = self.tight.spec
        self.directory, self.rng, self.rooms = directory, rng, rooms
        self.spilled = 0

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        metadata = dict(batch.schema.metadata)
        want = self.free.process(batch.replace_schema_metadata({**metadata, BUDGET: str(1 << 40).encode()}))
        if metadata[b"accelerator.call"] in (b"update", b"restore"):
            besides_rows = self.free._held_bytes() - sum(side.table_bytes for side in self.free.state.sides)
            metadata[BUDGET] = str(besides_rows + self.rng.choice(self.rooms)).encode()
            metadata[b"accelerator.spill_directory"] = str(self.directory).encode()
            metadata[b"accelerator.subtask_index"] = b"3"
        got = self.tight.process(batch.replace_schema_metadata(metadata))
        assert got.equals(want), f"{metadata[b'accelerator.call']} answers differ once spilled"
        self.spilled = max(self.spilled, sum(side.spilled_rows for side in self.tight.state.sides))
        return got

    def restored(self, state: pa.RecordBatch, descriptor: dict, **extra: str) -> SpilledAndNot:
        """Both stages' snapshot must be the same; a new pair restored from it."""
        other = SpilledAndNot(descriptor, self.directory, self.rng, self.rooms)
        other.spilled = self.spilled
        matches_tests.call(other, "restore", state, **extra)
        self.tight.close()
        return other


def _files(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize("seed", range(3))
def test_spilled_hashmap_backend_answers_as_javas_hash_maps_across_restores(flink, rows, tmp_path, seed):
    rng = random.Random(f"spill-{seed}")
    stream = hashmap_tests._stream(rng, rows, 1200)
    oracle = hashmap_tests._Oracle(flink, rows)
    pair = SpilledAndNot(hashmap_tests.descriptor(), tmp_path, rng)
    at, restores_while_spilled = 0, 0
    while at < len(stream):
        size = rng.choice((1, 7, 60, 300))
        part = stream[at:at + size]
        want = [(i, pair_) for i, r in enumerate(part) for pair_ in oracle.process(*r)]
        got = hashmap_tests._update(pair, rows, part)
        assert [(g[0], (g[1], g[2])) for g in got] == want, f"batch at {at} of seed {seed}"
        at += size
        if rng.random() < 0.25:
            spilled_now = sum(side.spilled_rows for side in pair.tight.state.sides)
            state = hashmap_tests._call(pair, "snapshot", pa.RecordBatch.from_pylist([]))  # the same from both
            pair = pair.restored(state, hashmap_tests.descriptor(), **RESTORE)
            oracle.checkpoint_and_restore()
            restores_while_spilled += spilled_now > 0
        # A side's files are merged before they pile up.
        assert len([f for f in _files(tmp_path) if "-side0-" in f]) <= spill.MAX_FILES_PER_SIDE + 1
    assert pair.spilled > 300 and restores_while_spilled > 0


@pytest.mark.parametrize("join_type", ["INNER", "LEFT", "RIGHT", "FULL"])
@pytest.mark.parametrize("collide", [False, True])
def test_spilled_rocksdb_joins_answer_as_stocks_rules_across_restores(tmp_path, monkeypatch, join_type, collide):
    if collide:  # three hash values for every row: the index tells rows apart by their bytes
        hashes = row_index.row_key_hashes
        monkeypatch.setattr(join_state, "row_key_hashes", lambda slots, orders: hashes(slots, orders) % np.uint64(3))
    rng = random.Random(f"{join_type}-{collide}")
    if join_type == "INNER":
        descriptor = matches_tests.descriptor()
        stream = [r for r in outer_tests._stream(rng, 900, "a" * 20 + "bcdefghijklmn") if r[1] is not None]
        want, update = matches_tests._row_at_a_time(stream), matches_tests.update
    else:
        descriptor = outer_tests.descriptor(join_type)
        outer = outer_tests.OUTER[join_type]
        stream = outer_tests._sent(outer_tests._stream(rng, 900, "a" * 20 + "bcdefghijklmn"), outer)
        want, update = outer_tests.stock(stream, outer_tests.OUTER[join_type]), outer_tests.update
    pair, got, at, restores_while_spilled = SpilledAndNot(descriptor, tmp_path, rng), [], 0, 0
    while at < len(stream):
        size = rng.choice((1, 7, 50))
        got += [(at + out[0],) + out[1:] for out in update(pair, stream[at:at + size])]
        at += size
        if rng.random() < 0.2:
            spilled_now = sum(side.spilled_rows for side in pair.tight.state.sides)
            state = matches_tests.call(pair, "snapshot", pa.RecordBatch.from_pylist([]))  # the same from both
            pair = pair.restored(state, descriptor, **RESTORE)
            restores_while_spilled += spilled_now > 0
    assert got == want and len(want) > 1000
    assert pair.spilled > 20 and restores_while_spilled > 0


def test_spill_files_are_named_after_stage_and_subtask_logged_once_and_removed_at_close(tmp_path, caplog):
    # A file a dead attempt of the same stage and subtask left, and a live process's, which stays.
    dead = subprocess.Popen(["true"])
    dead.wait()
    orphan = tmp_path / f"join-spill-j-subtask3-pid{dead.pid}-side0-1.arrow"
    orphan.write_bytes(b"left behind")
    alive = tmp_path / f"join-spill-j-subtask3-pid{os.getppid()}-side0-1.arrow"
    alive.write_bytes(b"another attempt's")
    pair = SpilledAndNot(matches_tests.descriptor(), tmp_path, random.Random(1), rooms=(0,))
    with caplog.at_level(logging.INFO, logger="accelerator.join.state"):
        for i in range(3):
            matches_tests.update(pair, [matches_tests.left("k", i, bytes([0, i]) * 20),
                                        matches_tests.right("k", f"v{i}", bytes([1, i]) * 20)])
    logged = [r.getMessage() for r in caplog.records if "spill" in r.getMessage()]
    assert len(logged) == 1 and logged[0].startswith("stage 'j' (subtask 3): the join's state (") and \
        f"its held rows now spill to Arrow files in {tmp_path}, read back memory-mapped" in logged[0], logged
    mine = [re.sub(r"\d+\.arrow$", "N.arrow", f) for f in _files(tmp_path) if f"-pid{os.getpid()}-" in f]
    assert mine == [f"join-spill-j-subtask3-pid{os.getpid()}-side{side}-N.arrow" for side in (0, 0, 0, 1, 1, 1)]
    assert not orphan.exists() and alive.exists()
    assert [side.spilled_rows for side in pair.tight.state.sides] == [3, 3]
    assert [side.table_bytes for side in pair.tight.state.sides] == [0, 0]
    pair.tight.close()
    assert _files(tmp_path) == [alive.name]


def test_a_state_whose_index_alone_outgrows_the_budget_fails_naming_the_spill_directory(tmp_path):
    stage = JoinStage(matches_tests.descriptor())
    rows = [matches_tests.left("k", 1, b"\x01" * 40)]
    with pytest.raises(StateBudgetError, match=f"outgrew its budget of 100 bytes.*its held rows are spilled to files"
                                               f" in {tmp_path}"):
        matches_tests.call(stage, "update", _batch(stage, rows), **{"accelerator.state_budget": "100",
                                                                   "accelerator.spill_directory": str(tmp_path)})
    assert stage.state.sides[0].spilled_rows == 1


def _batch(stage: JoinStage, rows: list[tuple]) -> pa.RecordBatch:
    """The update batch `test_join_matches.update` sends for `rows`."""
    sent = []

    class Capture:
        spec = stage.spec

        def process(self, batch):
            sent.append(batch)
            return pa.RecordBatch.from_pylist([], schema=stage.answer_schema)

    matches_tests.update(Capture(), rows)
    return sent[0]
