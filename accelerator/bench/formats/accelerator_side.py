"""Our formats timed in their own process, the way `flink_side` times Flink's: batch after batch,
decode (BinaryArray of messages -> Arrow RecordBatch) then encode (RecordBatch -> BinaryArray),
each timed with a monotonic clock around the whole call (and the process's CPU time beside it).

`python -m accelerator.bench.formats.accelerator_side FORMAT MESSAGES_FILE BATCH` is a
`worker.Worker`: one JSON line when ready, then one per `round` / `check` line on stdin (`check`
also reports whether the round's output is the input messages again).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from accelerator.bench.formats import inputs
from accelerator.bench.formats.codecs import Codec


def batches(values: pa.Array, size: int) -> list[pa.Array]:
    """`values` cut into batches of `size`, each its own array from offset 0, as the sidecar
    receives them from the JVM."""
    return [pa.concat_arrays([values.slice(start, size)]) for start in range(0, len(values), size)]


def one_round(codec: Codec, parts: list[pa.Array]) -> tuple[dict, list[pa.Array]]:
    """Wall and process CPU nanoseconds of decoding and encoding every batch once."""
    wall, cpu = time.perf_counter_ns, time.process_time_ns
    decode_ns = encode_ns = decode_cpu_ns = encode_cpu_ns = 0
    outputs = []
    for values in parts:
        c0, t0 = cpu(), wall()
        decoded = codec.decode(values)
        t1, c1 = wall(), cpu()
        encoded = codec.encode(decoded)
        t2, c2 = wall(), cpu()
        decode_ns += t1 - t0
        encode_ns += t2 - t1
        decode_cpu_ns += c1 - c0
        encode_cpu_ns += c2 - c1
        outputs.append(encoded)
    return {"decode_ns": decode_ns, "encode_ns": encode_ns, "decode_cpu_ns": decode_cpu_ns,
            "encode_cpu_ns": encode_cpu_ns}, outputs


def serve(fmt: str, values: pa.BinaryArray, batch: int, commands, reply) -> None:
    codec = Codec(fmt, inputs.BID_ROW)
    parts = batches(values, batch)
    reply({"messages": len(values), "bytes": pc.sum(pc.binary_length(values)).as_py(),
           "python": sys.version.split()[0], "pyarrow": pa.__version__, "cpu_count": pa.cpu_count()})
    for line in commands:
        command = line.strip()
        if command == "quit":
            return
        if command not in ("round", "check"):
            raise ValueError(f"command {command!r}: expected round, check or quit")
        timing, outputs = one_round(codec, parts)
        if command == "check":  # after the clock stops: the timed round trip gave the messages back
            timing["round_trip_identical"] = pa.concat_arrays(outputs).cast(pa.binary()).equals(values)
        reply(timing)


def main(argv: list[str]) -> int:
    fmt, path, batch = argv
    # One core: pyarrow's pools get one thread each, as the process may only use one CPU.
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    serve(fmt, inputs.read_messages(Path(path)), int(batch), sys.stdin,
          lambda answer: print(json.dumps(answer), flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
