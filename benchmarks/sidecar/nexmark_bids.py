"""Nexmark bids as a keyed stateful operator's batches, and the benchmark of a stage they drive:
the bid rows of the bench's generator (`accelerator.bench.nexmark`, the same events `accelerator
bench` produces into Kafka) with the transport columns the JVM operator adds, `$key` (the key's
BinaryRowData bytes) and `$key_group`, cut into batches as the operator sends them, for the
in-process stage benchmarks of Top-N and deduplication."""

from __future__ import annotations

import argparse
from typing import Callable

import numpy as np
import pyarrow as pa

from accelerator.bench import nexmark
from stage_bench import CpuRun, arguments, call_metadata, key_bytes

#: The `bid` view's fields, as the descriptor names them.
BID_FIELDS = [{"name": f.name, "type": f.type.serializable()} for f in nexmark.ROW_TYPE.fields[3].type.fields]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"}]
#: A restore call's metadata for every key group (the state's own format metadata comes with it).
RESTORE = {**call_metadata(b"restore"), b"accelerator.key_group_start": b"0", b"accelerator.key_group_end": b"127"}


def bids(events: int, seed: int = 42) -> pa.Table:
    """The bids among the first `events` Nexmark events, in event order."""
    parts = []
    for chunk in nexmark.events(events, seed):
        _, struct = chunk.rows[nexmark.BID]
        parts.append(pa.Table.from_struct_array(struct))
    return pa.concat_tables(parts).combine_chunks()


def batches(rows: pa.Table, key: tuple[str, ...], schema: pa.Schema, batch_rows: int,
            call: bytes = b"update") -> list[pa.RecordBatch]:
    """`rows` keyed by the BIGINT fields `key`, in batches of `batch_rows` as the operator sends them."""
    ids = [rows.column(k).to_numpy() for k in key]
    keys = key_bytes(*ids)
    key_groups = pa.array(np.bitwise_xor.reduce(ids) % 128, pa.int32())
    full = pa.table([keys, key_groups] + rows.columns, schema=schema)
    metadata = call_metadata(call)
    return [b.replace_schema_metadata(metadata)
            for b in full.to_batches(max_chunksize=batch_rows)]


def bid_arguments(doc: str, query: str) -> argparse.ArgumentParser:
    """The command line of a stage benchmark over the bids, in the shape of Nexmark `query`."""
    parser = arguments(doc)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--update-before", action="store_true",
                        help=f"emit -U rows too ({query}'s upsert sink does not)")
    parser.add_argument("--snapshot", action="store_true", help="also time one snapshot and its restore")
    return parser


def measure(label: str, open_stage: Callable[[], object], key: tuple[str, ...], args: argparse.Namespace) -> None:
    """Feeds a stage (`open_stage()`, keyed by `key`) the bids of `args.events` events through its
    `update` call and prints its CPU; with `args.snapshot` also times a snapshot and its restore."""
    stage = open_stage()
    rows = bids(args.events)
    work = batches(rows, key, stage.spec.input_schema, args.batch)
    with CpuRun(args.profile) as run:
        emitted = sum(stage.process(batch).num_rows for batch in work)
    print(f"{label}: {rows.num_rows:,} bids of {args.events:,} events in batches of {args.batch:,}:"
          f" {emitted:,} rows emitted, {stage.state.entries:,} keys held, {run.per_million(rows.num_rows)}",
          flush=True)
    if args.snapshot:
        _snapshot_and_restore(stage, open_stage())
    run.print_profile()


def _snapshot_and_restore(stage, fresh) -> None:
    with CpuRun(False) as taken:
        state = stage.snapshot(pa.RecordBatch.from_pylist([]))
    request = state.replace_schema_metadata({**state.schema.metadata, **RESTORE})
    with CpuRun(False) as restored:
        fresh.restore(request)
    print(f"  snapshot of {state.num_rows:,} rows {taken.seconds:.2f} CPU-s, restore {restored.seconds:.2f} CPU-s")
