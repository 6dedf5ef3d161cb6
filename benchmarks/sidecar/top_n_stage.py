"""CPU time of the top_n stage alone, per million rows, driven through its `update` call in process
(no transport) in the shape of Nexmark q19: `ROW_NUMBER() OVER (PARTITION BY auction ORDER BY
price DESC) <= 10` with the row number, over the bench generator's bids (half of them on the
latest hot auction), in batches as the JVM operator sends them (`--batch`: a batch leaves after
`accelerator.batch.max-delay`, 100 ms, about 5,000 bids at the bench's rate). `--profile` prints
cProfile's top costs; `--snapshot` also times a checkpoint's snapshot and its restore.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/top_n_stage.py [--events N] [--batch 5000]
        [--n 10] [--update-before] [--profile] [--snapshot]
"""

from __future__ import annotations

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.rank.stage import TopNStage
from nexmark_bids import BID_FIELDS, TRANSPORT, bid_arguments, measure


def descriptor(n: int, update_before: bool) -> dict:
    return {"name": "bench", "keys": [f for f in BID_FIELDS if f["name"] == "auction"],
            "sort": [{"name": "price", "type": "BIGINT", "ascending": False, "nulls_last": True}],
            "rank_end": n, "output_rank_number": True, "generate_update_before": update_before,
            "input": {"fields": TRANSPORT + BID_FIELDS},
            "output": {"fields": BID_FIELDS + [{"name": "rank_number", "type": "BIGINT NOT NULL"}]},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def main() -> None:
    parser = bid_arguments(__doc__, "q19")
    parser.add_argument("--n", type=int, default=10)
    args = parser.parse_args()
    measure(f"top_n (q19, N = {args.n})", lambda: TopNStage(descriptor(args.n, args.update_before)), ("auction",),
            args)


if __name__ == "__main__":
    main()
