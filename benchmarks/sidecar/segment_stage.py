"""CPU time of a stateless segment stage alone, per million messages, in process (no Flink, no
Kafka, no transport): the golden descriptor the shim exports for a Nexmark query on the standard
table (`substrait-plans/nexmark_std_<query>.json`) over the bench generator's messages (the ones
`accelerator bench` produces into Kafka, cached under `.cache/nexmark/`), cut into batches as the
operator cuts them (sent once their message bytes reach `accelerator.batch.max-bytes`, or at
`accelerator.batch.size` messages). Prints the stage's CPU and its phases, as `SegmentStage.process`
runs them: decoding the messages, the table the plan reads, the check for lone surrogates (a plan
with REGEXP_EXTRACT), the plan on DataFusion, encoding the result, and the answer's IPC stream as
the sidecar writes it into its response region; `--profile` adds cProfile's top costs.

    PYTHONPATH=. .cache/venv/bin/python benchmarks/sidecar/segment_stage.py [--query q0] [--events 200000]
        [--batch-bytes 4194304] [--batch-rows 16384] [--profile]
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from accelerator.bench import dataset
from accelerator.plans import udfs
from accelerator.sidecar.segment_stage import SegmentStage, _may_hold_lone_surrogates
from accelerator.sidecar.shm import serialize
from stage_bench import CpuRun, arguments

GOLDEN = Path(__file__).resolve().parents[2] / "substrait-plans"
PHASES = ("decode", "table", "surrogate check", "plan", "encode", "answer")


def batches(values: pa.Array, batch_bytes: int, batch_rows: int) -> list[pa.RecordBatch]:
    """`values` cut as the operator cuts them: a batch leaves once its bytes reach `batch_bytes`
    (its last message takes it past) or it holds `batch_rows` messages."""
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32, count=len(values) + 1, offset=values.offset * 4)
    ends = offsets[1:] - offsets[0]  # bytes up to and with each message
    start, out = 0, []
    while start < len(values):
        reached = int(np.searchsorted(ends, (ends[start - 1] if start else 0) + batch_bytes, side="left")) + 1
        stop = min(reached, start + batch_rows, len(values))
        out.append(pa.record_batch([values.slice(start, stop - start)], names=["value"]))
        start = stop
    return out


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--query", default="q0", help="q0, q1, q2, q14, q21 or q22")
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--batch-bytes", type=int, default=4 << 20)
    parser.add_argument("--batch-rows", type=int, default=16_384)
    parser.add_argument("--repeat", type=int, default=3, help="passes over the messages")
    args = parser.parse_args()
    descriptor = json.loads((GOLDEN / f"nexmark_std_{args.query}.json").read_text())
    values = pa.concat_arrays(list(dataset.batches(dataset.ensure(args.events)))).cast(pa.binary())
    cut = batches(values, args.batch_bytes, args.batch_rows)
    stage = SegmentStage(descriptor)
    stage.process(cut[0])  # warm-up: DataFusion's first plan, the formats' first calls
    spent = dict.fromkeys(PHASES, 0.0)

    def timed(phase, action, *arguments):
        started = time.process_time()
        result = action(*arguments)
        spent[phase] += time.process_time() - started
        return result

    with CpuRun(args.profile) as run:
        for _ in range(args.repeat):
            for batch in cut:
                decoded, _, _ = timed("decode", stage._decode, batch)
                table = timed("table", stage._table, batch, decoded)
                udfs.BATCH.lone_surrogates_possible = timed("surrogate check", lambda: any(
                    _may_hold_lone_surrogates(batch.column(c)) for c in stage._surrogate_columns))
                result = timed("plan", stage._plan.execute, table, True)
                messages = timed("encode", stage._encoder.encode, result)
                timed("answer", serialize, [messages])
    messages = args.repeat * len(values)
    print(f"nexmark_std_{args.query}: {len(cut)} batches of {len(values) / len(cut):,.0f} messages;"
          f" {run.per_million(messages, 'messages')}")
    print("  " + ", ".join(f"{phase} {seconds / messages * 1e6:.3f}" for phase, seconds in spent.items())
          + " CPU-s per million messages")
    run.print_profile(("tottime", 25))


if __name__ == "__main__":
    main()
