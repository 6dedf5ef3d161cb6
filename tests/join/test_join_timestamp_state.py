"""A join holding TIMESTAMP fields checkpoints and restores its rows: a snapshot row carries the
other input's fields as NULL, and a NULL timestamp (a struct of NOT NULL millis and nanos parts)
must hold zero parts to fit the state schema (Nexmark q4/q9's auctions and bids carry times)."""

from __future__ import annotations

import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.formats import timestamps
from accelerator.join.stage import JoinStage

BUDGET = str(1 << 30).encode()
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]
ROW = [{"name": "k", "type": "BIGINT"}, {"name": "t", "type": "TIMESTAMP(3)"},
       {"name": "k0", "type": "BIGINT"}, {"name": "t0", "type": "TIMESTAMP(3)"}]
DESCRIPTOR = {"name": "j", "join_type": "INNER", "left_arity": 2, "input": {"fields": TRANSPORT + ROW},
              "output": {"fields": ROW}, "state": {"format": 3, "fingerprint": "ab" * 32, "backend": "rocksdb"}}


def call(s: JoinStage, name: str, batch: pa.RecordBatch, **extra: str) -> pa.RecordBatch:
    metadata = {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET}
    metadata.update({k.encode(): v.encode() for k, v in extra.items()})
    return s.process(batch.replace_schema_metadata(metadata))


def test_rows_with_timestamps_survive_a_snapshot_and_restore():
    s = JoinStage(DESCRIPTOR)
    left_time = timestamps.from_epoch_millis(pa.array([5_000, 0], pa.int64()))
    right_time = timestamps.from_epoch_millis(pa.array([0, 7_000], pa.int64()))
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b"1", b"1"]), pa.array([3, 3], pa.int32()), pa.array([0, 1], pa.int8()), pa.array([b"L", b"R"]),
         pa.array([1, None], pa.int64()), pa.array(left_time.to_pylist()[:1] + [None], left_time.type),
         pa.array([None, 1], pa.int64()), pa.array([None] + right_time.to_pylist()[1:], right_time.type)],
        schema=s.spec.input_schema)
    assert call(s, "update", batch).num_rows == 1
    state = call(s, "snapshot", pa.RecordBatch.from_pylist([]))
    restored = JoinStage(DESCRIPTOR)
    call(restored, "restore", state, **{"accelerator.state_format": "3", "accelerator.state_fingerprint": "ab" * 32,
                                        "accelerator.key_group_start": "3", "accelerator.key_group_end": "3"})
    # The restored stage holds both rows: a new right row of key 1 joins the left one.
    again = pa.RecordBatch.from_arrays([c.slice(1) for c in batch.columns], schema=batch.schema)
    answer = call(restored, "update", again).to_pylist()
    assert [(r["k"], r["t"], r["k0"], r["t0"]) for r in answer] == [(1, {"millis": 5_000, "nanos": 0},
                                                                     1, {"millis": 7_000, "nanos": 0})]
