"""CPU time of the deduplicate stage alone, per million rows, driven through its `update` call in
process (no transport) in the shape of Nexmark q18: the last bid of each (bidder, auction) by
`dateTime` (`ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) = 1`, event
time, into an upsert sink: no update-befores, inserts on), over the bench generator's bids, in
batches as the JVM operator sends them (`--batch`: a batch leaves after
`accelerator.batch.max-delay`, 100 ms, about 5,000 bids at the bench's rate). `--order proctime`
keeps the last row on processing time instead (the per-level path). `--profile` prints cProfile's
top costs; `--snapshot` also times a checkpoint's snapshot and its restore.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/dedup_stage.py [--events N] [--batch 5000]
        [--order rowtime|proctime] [--update-before] [--profile] [--snapshot]
"""

from __future__ import annotations

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.dedup.stage import DedupStage
from nexmark_bids import BID_FIELDS, TRANSPORT, bid_arguments, measure

KEY = ("bidder", "auction")


def descriptor(order: str, update_before: bool) -> dict:
    return {"name": "bench", "keys": [f for k in KEY for f in BID_FIELDS if f["name"] == k],
            "order": order, "keep": "last", "rowtime": "dateTime" if order == "rowtime" else None,
            "generate_update_before": update_before, "generate_insert": True,
            "input": {"fields": TRANSPORT + BID_FIELDS}, "output": {"fields": BID_FIELDS},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def main() -> None:
    parser = bid_arguments(__doc__, "q18")
    parser.add_argument("--order", choices=("rowtime", "proctime"), default="rowtime")
    args = parser.parse_args()
    measure(f"deduplicate (q18, {args.order})", lambda: DedupStage(descriptor(args.order, args.update_before)), KEY,
            args)


if __name__ == "__main__":
    main()
