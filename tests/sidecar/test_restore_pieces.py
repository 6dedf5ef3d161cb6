"""A key whose state rows were cut over several `restore` calls (a key group larger than a snapshot
piece goes on in the next piece, and the JVM cuts each piece into calls of at most
`accelerator.batch.max-bytes` by rows) is restored whole: a Top-N's and a join's state, snapshotted
in pieces through the generic `keyed_state.run_call` and restored one call at a time as the JVM
sends them (`accelerator.restore_continues` on each call whose key group goes on in the next),
makes the restored stage answer the rows that follow exactly as the stage that never stopped; a
key restored twice (in calls that do not follow each other) is still refused, and so is a restore
that says its key group goes on but is followed by another key group or another call."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.join.stage import JoinStage, JoinStateError
from accelerator.rank.stage import TopNStage, TopNStateError
from accelerator.sidecar import state_calls
from accelerator.sidecar.state_calls import CallError

BUDGET = str(1 << 30).encode()
FINGERPRINT = "ab" * 32
ROW = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "p", "type": "BIGINT"},
       {"name": "s", "type": "VARCHAR(2147483647)"}]
KEYED = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"}]


def top_n_stage() -> TopNStage:
    """The top 5 rows (k STRING, p BIGINT, s STRING) by p DESC per k, with the row number."""
    return TopNStage({
        "name": "t", "keys": [ROW[0]], "sort": [{"name": "p", "type": "BIGINT", "ascending": False, "nulls_last": True}],
        "rank_end": 5, "output_rank_number": True, "generate_update_before": True,
        "input": {"fields": KEYED + ROW}, "output": {"fields": ROW + [{"name": "rn", "type": "BIGINT NOT NULL"}]},
        "state": {"format": 1, "fingerprint": FINGERPRINT}})


def join_stage() -> JoinStage:
    """An INNER join of (k STRING, a BIGINT) and (k0 STRING, b STRING) on the RocksDB backend, whose
    matches come in the order of their serialized rows: a restored key joins as before the checkpoint."""
    left = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "a", "type": "BIGINT"}]
    right = [{"name": "k0", "type": "VARCHAR(2147483647)"}, {"name": "b", "type": "VARCHAR(2147483647)"}]
    transport = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"},
                 {"name": "$key_group", "type": "INT NOT NULL"}, {"name": "$side", "type": "TINYINT NOT NULL"},
                 {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]
    return JoinStage({"name": "j", "join_type": "INNER", "left_arity": 2, "input": {"fields": transport + left + right},
                      "output": {"fields": left + right},
                      "state": {"format": 3, "fingerprint": FINGERPRINT, "backend": "rocksdb"}})


def call(stage, name: str, batch: pa.RecordBatch, **extra) -> pa.RecordBatch:
    metadata = {state_calls.CALL: name.encode(), state_calls.STATE_BUDGET: BUDGET}
    metadata.update({f"accelerator.{k}".encode(): str(v).encode() for k, v in extra.items()})
    return stage.process(batch.replace_schema_metadata(metadata))


def key_group(key: str) -> int:
    """Three key groups: most keys share one, so it is larger than a piece."""
    return 7 if key < "k6" else (9 if key < "k8" else 40)


def top_n_rows(stage: TopNStage, rng: random.Random, n: int) -> pa.RecordBatch:
    keys = [f"k{rng.randrange(10)}" for _ in range(n)]
    return pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for k in keys], pa.binary()), pa.array([key_group(k) for k in keys], pa.int32()),
         pa.array(keys, pa.string()), pa.array([rng.randrange(1000) for _ in keys], pa.int64()),
         pa.array(["v" * rng.randrange(40) for _ in keys], pa.string())], schema=stage.spec.input_schema)


def join_rows(stage: JoinStage, rng: random.Random, n: int) -> pa.RecordBatch:
    rows = [(rng.randrange(2), f"k{rng.randrange(10)}", rng.randrange(60)) for _ in range(n)]
    return pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for _, k, _ in rows], pa.binary()), pa.array([key_group(k) for _, k, _ in rows], pa.int32()),
         pa.array([side for side, _, _ in rows], pa.int8()),
         pa.array([v.to_bytes(2, "big") * (1 + v % 5) for _, _, v in rows], pa.binary()),
         pa.array([k if side == 0 else None for side, k, _ in rows], pa.string()),
         pa.array([v if side == 0 else None for side, _, v in rows], pa.int64()),
         pa.array([k if side == 1 else None for side, k, _ in rows], pa.string()),
         pa.array([f"b{v}" if side == 1 else None for side, _, v in rows], pa.string())],
        schema=stage.spec.input_schema)


def pieces(stage, max_bytes: int) -> list[pa.RecordBatch]:
    """The stage's snapshot in pieces of at most `max_bytes`, as the JVM asks for them."""
    out = [call(stage, "snapshot", pa.RecordBatch.from_pylist([]), snapshot_piece=0, snapshot_piece_bytes=max_bytes)]
    while len(out) < int(out[0].schema.metadata[state_calls.SNAPSHOT_PIECES]):
        out.append(call(stage, "snapshot", pa.RecordBatch.from_pylist([]), snapshot_piece=len(out),
                        snapshot_piece_bytes=max_bytes))
    return out


def restore_calls(snapshot: list[pa.RecordBatch], rng: random.Random) -> list[tuple[pa.RecordBatch, bool]]:
    """The restore calls the JVM makes of the pieces: each piece's rows of one key group is a frame,
    cut by rows into calls of a few rows; a call continues when the next call holds rows of its key
    group (the next piece goes on with it, or the frame has rows left)."""
    calls = []
    for piece in snapshot:
        groups = piece.column("$key_group").to_numpy()
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        for first, end in zip(starts, np.r_[starts[1:], len(groups)]):
            at = int(first)
            while at < end:
                rows = min(int(end) - at, rng.choice((1, 2, 3, 5, 40)))
                calls.append(piece.slice(at, rows))
                at += rows
    out = []
    for i, rows in enumerate(calls):
        after = calls[i + 1] if i + 1 < len(calls) else None
        continues = after is not None and after.column("$key_group")[0] == rows.column("$key_group")[-1]
        out.append((rows, continues))
    return out


def restore(stage, calls: list[tuple[pa.RecordBatch, bool]], version: int) -> None:
    for rows, continues in calls:
        call(stage, "restore", rows, key_group_start=0, key_group_end=127, state_format=version,
             state_fingerprint=FINGERPRINT, restore_continues=int(continues))


def straddling_keys(calls: list[tuple[pa.RecordBatch, bool]]) -> int:
    """How many calls end with a key whose rows go on in the next call."""
    return sum(1 for (rows, _), (after, _) in zip(calls, calls[1:])
               if rows.num_rows and after.num_rows and rows.column("$key")[-1] == after.column("$key")[0])


def piece_straddles(snapshot: list[pa.RecordBatch]) -> bool:
    """Whether a key's rows go on from one snapshot piece into the next."""
    return any(a.schema.metadata[state_calls.SNAPSHOT_CONTINUES] == b"1" and a.column("$key")[-1] == b.column("$key")[0]
               for a, b in zip(snapshot, snapshot[1:]))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("family", ["top_n", "join"])
def test_a_key_cut_over_pieces_and_calls_restores_whole_and_answers_as_the_stage_that_never_stopped(family, seed):
    make, rows, version = (top_n_stage, top_n_rows, 1) if family == "top_n" else (join_stage, join_rows, 3)
    rng = random.Random(seed)
    running = make()
    call(running, "update", rows(running, rng, 400))
    snapshot = pieces(running, 600)
    assert piece_straddles(snapshot), "a key's rows go on from one piece into the next"
    calls = restore_calls(snapshot, rng)
    assert straddling_keys(calls) > 5
    restored = make()
    restore(restored, calls, version)
    for _ in range(3):
        batch = rows(running, rng, 150)
        assert call(restored, "update", batch).equals(call(running, "update", batch))


def test_a_key_restored_in_calls_that_do_not_follow_each_other_is_refused_as_held_twice():
    running = top_n_stage()
    call(running, "update", top_n_rows(running, random.Random(3), 400))
    state = call(running, "snapshot", pa.RecordBatch.from_pylist([]))
    keys = state.column("$key").to_pylist()
    first = keys.index(keys[0], 0)
    last = len(keys) - keys[::-1].index(keys[0])  # the first key's rows: first..last
    split = first + 2
    calls = [(state.slice(0, split), True), (state.slice(last, 1), True), (state.slice(split, last - split), False)]
    with pytest.raises(TopNStateError, match="key without its first top row|key twice"):
        restore(top_n_stage(), calls, 1)
    # The same key's rows in the consecutive calls of one key group are one key.
    restore(top_n_stage(), [(state.slice(0, split), True), (state.slice(split), False)], 1)
    # Twice in a key group's calls that follow each other, but with the first call not going on: two keys.
    with pytest.raises(TopNStateError):
        restore(top_n_stage(), [(state.slice(0, split), False), (state.slice(split, last - split), False)], 1)


def test_a_join_key_restored_twice_is_refused():
    running = join_stage()
    call(running, "update", join_rows(running, random.Random(5), 200))
    state = call(running, "snapshot", pa.RecordBatch.from_pylist([]))
    with pytest.raises(JoinStateError, match="key twice"):
        restore(join_stage(), [(state, False), (state.slice(0, 3), False)], 3)


def test_a_restore_that_goes_on_must_be_followed_by_its_key_groups_next_rows():
    running = top_n_stage()
    call(running, "update", top_n_rows(running, random.Random(4), 400))
    state = call(running, "snapshot", pa.RecordBatch.from_pylist([]))
    groups = state.column("$key_group").to_numpy()
    other = int(np.flatnonzero(groups != groups[0])[0])
    with pytest.raises(CallError, match=f"key group {groups[0]} goes on.*key group {groups[other]}"):
        restore(top_n_stage(), [(state.slice(0, 3), True), (state.slice(other, 2), False)], 1)
    stage = top_n_stage()
    restore(stage, [(state.slice(0, 3), True)], 1)
    with pytest.raises(CallError, match="goes on in the next restore call, but the next call is 'update'"):
        call(stage, "update", top_n_rows(stage, random.Random(1), 3))
