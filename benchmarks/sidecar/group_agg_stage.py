"""CPU time of the group_agg stage alone, per million rows, driven through its `update` call in
process (no transport): COUNT(*) and SUM(price) per key over many keys, the shape where finding
each row's slot (`KeySlots`) weighs most.

With `--distinct`, Nexmark q16's aggregates instead: COUNT(*) and COUNT(DISTINCT bidder),
COUNT(DISTINCT auction), each also under three price-range FILTERs, over few keys (channel and
day: use `--keys 40`), where finding each value's entry in the distinct state weighs most;
`--plain-counts` runs the same aggregates without DISTINCT, the cost without the distinct state.

Rows: spread uniformly over `--keys` keys (with `--hot 0.5`, half of them on 10 hot keys instead),
in batches of `--batch` rows, as the JVM operator sends them; keys are BinaryRowData of one
BIGINT, as Flink writes them.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/group_agg_stage.py [--rows N] [--keys K] [--profile]
    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/group_agg_stage.py --distinct --keys 40 [--plain-counts]
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupagg.stage import GroupAggStage
from cpu_clock import CpuClock
from stage_bench import CpuRun, arguments, call_metadata, key_bytes

#: q16's price ranges: FILTER (WHERE price < 10000), [10000, 1000000) and >= 1000000.
RANGES = ("$f1", "$f2", "$f3")


def _descriptor(distinct: bool, plain_counts: bool) -> dict:
    fields = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"},
              {"name": "price", "type": "BIGINT"}]
    aggregates = [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "emit": True}]
    if not distinct:
        aggregates.append({"function": "sum", "arg": "price", "acc": "BIGINT", "emit": True})
    else:
        fields += [{"name": "bidder", "type": "BIGINT"}, {"name": "auction", "type": "BIGINT"}]
        fields += [{"name": f, "type": "BOOLEAN"} for f in RANGES]
        aggregates += [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL", "emit": True, "filter": f}
                       for f in RANGES]
        for arg in ("bidder", "auction"):
            for where in (None,) + RANGES:
                aggregates.append({"function": "count", "arg": arg, "acc": "BIGINT NOT NULL", "emit": True}
                                  | ({"filter": where} if where else {}) | ({} if plain_counts else {"distinct": True}))
    values = [{"name": f"v{i}", "type": a["acc"]} for i, a in enumerate(aggregates)]
    return {"name": "bench", "keys": [{"name": "k", "type": "BIGINT NOT NULL"}], "input": {"fields": fields},
            "aggregates": aggregates, "generate_update_before": True,
            "output": {"fields": [{"name": "k", "type": "BIGINT NOT NULL"}] + values},
            "state": {"format": 2, "fingerprint": "ab" * 32}}


def _batches(stage: GroupAggStage, rows: int, batch_rows: int, keys: int, hot: float,
             seed: int = 7) -> list[pa.RecordBatch]:
    rng = np.random.default_rng(seed)
    ids = np.where(rng.random(rows) < hot, rng.integers(0, 10, rows), 10 + rng.integers(0, keys, rows))
    # Nexmark's prices are mostly small: a third of the rows in each of q16's ranges.
    prices = 10 ** rng.integers(2, 8, rows) + rng.integers(0, 100, rows)
    bidders, auctions = rng.zipf(1.3, rows) % 100_000, rng.integers(0, 50_000, rows)
    distinct = "bidder" in stage.spec.input_schema.names
    out = []
    for start in range(0, rows, batch_rows):
        key_ids = ids[start:start + batch_rows]
        price = prices[start:start + batch_rows]
        columns = [key_bytes(key_ids), pa.array(key_ids % 128, pa.int32()), pa.array(price, pa.int64())]
        if distinct:
            columns += [pa.array(bidders[start:start + batch_rows], pa.int64()),
                        pa.array(auctions[start:start + batch_rows], pa.int64()),
                        pa.array(price < 10_000), pa.array((price >= 10_000) & (price < 1_000_000)),
                        pa.array(price >= 1_000_000)]
        out.append(pa.RecordBatch.from_arrays(columns, schema=stage.spec.input_schema)
                   .replace_schema_metadata(call_metadata(b"update")))
    return out


def measure(rows: int, batch_rows: int, keys: int, hot: float, profile: bool, distinct: bool,
            plain_counts: bool) -> None:
    stage = GroupAggStage(_descriptor(distinct, plain_counts))
    batches = _batches(stage, rows, batch_rows, keys, hot)
    with CpuRun(profile) as run, CpuClock().timing(stage.state.key_slots, "slots") as slots_clock:
        emitted = sum(stage.process(b).num_rows for b in batches)
    shape = ("q16 without DISTINCT" if plain_counts else "q16") if distinct else "COUNT(*), SUM"
    held = sum(len(a.entries) for a in stage.state.distinct.arguments)
    print(f"group_agg ({shape}): {rows:,} rows in batches of {batch_rows:,}, {keys:,} keys, {hot:.0%} hot: {emitted:,} rows emitted,"
          f" {stage.state.entries:,} keys and {held:,} distinct values held, {run.per_million(rows)},"
          f" {slots_clock.seconds / rows * 1e6:.2f} of them finding slots",
          flush=True)
    run.print_profile()


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--hot", type=float, default=0.0, help="the share of rows on 10 hot keys")
    parser.add_argument("--distinct", action="store_true", help="Nexmark q16's COUNT(DISTINCT) aggregates")
    parser.add_argument("--plain-counts", action="store_true", help="with --distinct: the same COUNTs without DISTINCT")
    args = parser.parse_args()
    measure(args.rows, args.batch, args.keys, args.hot, args.profile, args.distinct, args.plain_counts)


if __name__ == "__main__":
    main()
