"""Where an accelerated job's TaskManager CPU goes: JDK Flight Recorder samples grouped by activity.

A benchmark run records the TaskManager with JFR (`accelerator bench --flink-config
env.java.opts.taskmanager=-XX:StartFlightRecording=filename=tm.jfr,settings=profile`); this module
reads the recording with the JDK's `jfr` tool, keeps the window of one job (the longest burst of
samples of its task thread, i.e. the measured run, not its warm-up: jobs run one at a time) and
groups every Java thread's CPU samples in it by what the TaskManager was doing. `threads` logs
each TaskManager thread's CPU from /proc meanwhile, which also counts the GC and JIT threads JFR
does not sample.

    python -m accelerator.bench.jfr_profile threads tm.jfr threads.jsonl &   # during the run
    python -m accelerator.bench.jfr_profile summary tm.jfr 'Accelerated[nexmark-to-nexmark_q1]' [threads.jsonl]
"""

from __future__ import annotations

import collections
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import time

# A sample belongs to the first activity one of whose marks is in any of its frames: the chain
# is synchronous (the source's record goes through the operator, its flush and the sink writer in
# one call), so the inner activities come first and the source's own work last.
ACTIVITIES = [
    ("chain copy (RowDataSerializer.copy)", ["RowDataSerializer.copy"]),
    ("Arrow append", ["runtime/ValueBatch", "runtime/MetadataColumns", "runtime/RecordCoordinates",
                      "runtime/MessageTimestamps"]),
    ("transport to/from the sidecar", ["sidecar/SidecarStage", "sidecar/SharedRegion", "py4j"]),
    ("raw serialization (sink's record schema)", ["RawFormatSerializationSchema", "DynamicKafkaRecordSerializationSchema"]),
    ("producer send/accumulate", ["kafka/sink/KafkaWriter", "clients/producer/"]),
    ("stage descriptor parsed per batch", ["AcceleratedSegmentSpec.writesKeys"]),
    ("output RowData", ["AcceleratedOperator.emit", "runtime/WrittenColumns", "AcceleratedOperator.flush"]),
    ("the operator's per-record bookkeeping", ["AcceleratedOperator.processElement"]),
    ("record deserialization and RowData building", ["RawFormatDeserializationSchema",
                                                    "DynamicKafkaDeserializationSchema", "KafkaRecordEmitter"]),
    ("Kafka fetch/parse (task thread)", ["clients/consumer", "KafkaPartitionSplitReader", "KafkaSourceReaderMetrics"]),
    ("Flink mailbox/source loop", ["org/apache/flink/"]),
]


def _thread(event: dict) -> str:
    return (event["values"].get("sampledThread") or {}).get("javaName") or "?"


def _frames(event: dict) -> list[str]:
    stack = event["values"].get("stackTrace") or {}
    return [f["method"]["type"]["name"].replace("org/apache/flink/kafka/shaded/", "") + "." + f["method"]["name"]
            for f in stack.get("frames", [])]


def _time(event: dict) -> float:
    stamp = event["values"]["startTime"][:26].rstrip("Z")
    return datetime.datetime.fromisoformat(stamp).replace(tzinfo=datetime.timezone.utc).timestamp()


def activity(event: dict) -> str:
    name = _thread(event)
    if name.startswith("kafka-producer-network-thread"):
        return "producer network thread"
    if name.startswith("Source Data Fetcher"):
        return "Kafka fetch/decompress/parse (fetcher thread)"
    frames = _frames(event)
    for label, marks in ACTIVITIES:
        if any(mark in frame for frame in frames for mark in marks):
            return label
    return "other"


def job_window(events: list[dict], job: str) -> tuple[float, float]:
    """The longest run of the job's task-thread samples with no gap over 2 s: its measured run."""
    times = sorted(_time(e) for e in events if job in _thread(e) and not _thread(e).startswith("Source Data"))
    if not times:
        raise SystemExit(f"no sample of a thread named after {job!r} in the recording")
    bursts, start = [], times[0]
    for previous, current in zip(times, times[1:]):
        if current - previous > 2.0:
            bursts.append((start, previous))
            start = current
    bursts.append((start, times[-1]))
    return max(bursts, key=lambda b: b[1] - b[0])


def _shares(counter: collections.Counter, total: int, top: int) -> list[str]:
    return [f"{count:6d} {100 * count / total:5.1f}%  {name}" for name, count in counter.most_common(top)]


def summary(recording: str, job: str, threads_log: str | None = None) -> str:
    printed = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample",
                              recording], check=True, capture_output=True, text=True).stdout
    events = json.loads(printed)["recording"]["events"]
    start, end = job_window(events, job)
    window = [e for e in events if start <= _time(e) <= end]
    lines = [f"{job}: {end - start:.1f} s window, {len(window)} CPU samples of Java threads", "", "by activity:"]
    lines += _shares(collections.Counter(activity(e) for e in window), len(window), 20)
    lines += ["", "top self frames:"]
    lines += _shares(collections.Counter((_frames(e) or ["?"])[0] for e in window), len(window), 25)
    if threads_log:
        lines += ["", "TaskManager threads' CPU from /proc over the window:"] + _thread_cpu(threads_log, start, end)
    return "\n".join(lines)


def _thread_cpu(threads_log: str, start: float, end: float) -> list[str]:
    snaps = [json.loads(line) for line in open(threads_log)]
    first = min(snaps, key=lambda s: abs(s["t"] - start))
    last = min(snaps, key=lambda s: abs(s["t"] - end))
    ticks = collections.Counter()
    for name, value in last["threads"].items():
        ticks[re.sub(r"#?\d+$", "", name)] += value - first["threads"].get(name, 0)
    total = sum(ticks.values()) or 1
    hz = os.sysconf("SC_CLK_TCK")
    return [f"{v / hz:7.2f} s {100 * v / total:5.1f}%  {k}" for k, v in ticks.most_common(12)]


def threads(marker: str, out_path: str, interval: float = 0.5) -> None:
    """Logs every `interval` s the CPU ticks per thread name (15 characters, as Linux keeps them) of
    the TaskManager whose command line holds `marker` (its JFR file name), until interrupted."""
    with open(out_path, "w") as out:
        while True:
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    command = open(f"/proc/{pid}/cmdline", "rb").read()
                except OSError:
                    continue
                if b"TaskManagerRunner" not in command or marker.encode() not in command:
                    continue
                ticks: dict[str, int] = collections.Counter()
                for task in glob.glob(f"/proc/{pid}/task/*"):
                    try:
                        name = open(f"{task}/comm").read().strip()
                        fields = open(f"{task}/stat").read().rsplit(")", 1)[1].split()
                    except OSError:
                        continue
                    ticks[name] += int(fields[11]) + int(fields[12])  # utime + stime
                out.write(json.dumps({"t": time.time(), "threads": ticks}) + "\n")
                out.flush()
            time.sleep(interval)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "threads":
        threads(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "summary":
        print(summary(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
    else:
        sys.exit(__doc__)
