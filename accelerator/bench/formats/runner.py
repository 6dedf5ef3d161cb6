"""`accelerator bench-formats`: for each format, Flink's side (which also writes the messages
both sides time), the byte check, then rounds of both sides in turn; the ratio table as JSON,
Markdown and a section of docs/performance.md."""

from __future__ import annotations

import datetime
import functools
import json
import os
import socket
import sys
import time
from pathlib import Path

from accelerator.bench import docs_section
from accelerator.bench.formats import byte_check, flink_side, inputs, summary, worker
from accelerator.bench.formats.codecs import Codec
from accelerator.testing import locations


def _accelerator_side(fmt: str, messages_file: Path, batch: int, cpu: int) -> worker.Worker:
    command = [sys.executable, "-m", "accelerator.bench.formats.accelerator_side", fmt, str(messages_file),
               str(batch)]
    return worker.Worker("accelerator", command, cpu, env=dict(os.environ, OMP_NUM_THREADS="1"))


def _rounds(flink: worker.Worker, ours: worker.Worker, rounds: int, warm_up: int) -> dict[str, dict]:
    """Rounds asked of the two sides in turn, who goes first alternating; the first measured
    round of each is a `check` round."""
    sides = {"flink": flink, "accelerator": ours}
    timed = {name: {"warm_up": [], "rounds": []} for name in sides}
    for r in range(warm_up + rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        for name in order:
            timing = sides[name].request("check" if r == warm_up else "round")
            timed[name]["warm_up" if r < warm_up else "rounds"].append(timing)
    return timed


def run_format(fmt: str, rows: int, batch: int, rounds: int, warm_up: int, work_dir: Path, cpu: int,
               seed: int = 42, out=print) -> dict:
    """Both sides of one format; raises byte_check.Mismatch, before either side is timed, if our
    codecs do not reproduce Flink's bytes."""
    seed_file, flink_file = work_dir / f"{fmt}-{rows}-seed.bin", work_dir / f"{fmt}-{rows}-flink.bin"
    inputs.write_messages(seed_file, inputs.seed_messages(rows, fmt, seed, out=out))
    with flink_side.start(fmt, inputs.BID_ROW, seed_file, flink_file, batch, work_dir, cpu) as flink:
        flink_messages = inputs.read_messages(flink_file)
        checked = byte_check.check(fmt, Codec(fmt, inputs.BID_ROW), inputs.bid_rows(rows, seed), flink_messages)
        out(f"{fmt}: our decode and encode reproduce Flink's {checked.messages:,} messages byte for byte;"
            f" timing both sides in turn ({rounds} rounds + {warm_up} warm-up, batches of {batch:,}) ...")
        with _accelerator_side(fmt, flink_file, batch, cpu) as ours:
            timed = _rounds(flink, ours, rounds, warm_up)
    timed["accelerator"]["round_trip_identical"] = timed["accelerator"]["rounds"][0].pop("round_trip_identical")
    if not timed["accelerator"]["round_trip_identical"]:
        raise byte_check.Mismatch(f"{fmt}: the timed decode+encode round trip did not give Flink's bytes back"
                                  f" (batches of {batch}), though the whole-array check passed")
    return {"format": fmt, "byte_check": vars(checked),
            "flink": flink.ready | timed["flink"], "accelerator": ours.ready | timed["accelerator"]}


def run(rows: int, batch: int, rounds: int, formats: list[str], warm_up: int = 1, seed: int = 42,
        out=print) -> dict:
    started, load_start = time.time(), [round(x, 2) for x in os.getloadavg()]
    work_dir = locations.cache_dir() / "bench-formats"
    work_dir.mkdir(parents=True, exist_ok=True)
    cpu = worker.benchmark_cpu()
    results = [run_format(fmt, rows, batch, rounds, warm_up, work_dir, cpu, seed, out) for fmt in formats]
    return {
        "settings": {"rows": rows, "batch": batch, "rounds": rounds, "warm_up": warm_up, "seed": seed,
                     "formats": formats, "cpu": cpu, "jvm_options": " ".join(flink_side.JVM_OPTIONS),
                     "row_type": inputs.BID_ROW.serializable()},
        "formats": results,
        "ratios": summary.ratio_rows(results),
        "wall_seconds": round(time.time() - started, 1),
        "load_average_start": load_start,
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
    }


def main(rows: int, batch: int, rounds: int, formats: list[str], report_path: Path | None,
         docs_path: Path | None, command: str, warm_up: int = 1,
         out=functools.partial(print, flush=True)) -> int:
    unknown = [f for f in formats if f not in inputs.FORMATS]
    if unknown or not formats or rows < 1 or batch < 1 or rounds < 1 or warm_up < 0:
        out(f"bench-formats: need formats among {', '.join(inputs.FORMATS)} (got {formats}), rows, batch and"
            f" rounds >= 1, warm-up >= 0")
        return 2
    now = datetime.datetime.now(datetime.timezone.utc)
    host = socket.gethostname()
    if report_path is None:
        report_path = locations.REPO_ROOT / "benchmarks" / "results" / f"{now:%Y-%m-%d}-{host}-formats.json"
    try:
        report = run(rows, batch, rounds, formats, warm_up, out=out)
    except byte_check.Mismatch as error:
        out(f"FAIL: {error}")
        return 1
    try:
        shown_path = report_path.resolve().relative_to(locations.REPO_ROOT.resolve())
    except ValueError:
        shown_path = report_path
    report.update({"date": f"{now:%Y-%m-%d %H:%M}", "host": host, "cpus": os.cpu_count(), "command": command,
                   "json_path": str(shown_path)})
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=1) + "\n")
    out("")
    out(summary.markdown_table(report["ratios"]))
    out(f"report: {report_path} (wall {report['wall_seconds']:.0f} s)")
    if docs_path is not None:
        docs_section.replace(docs_path, summary.SECTION, summary.docs_section(report))
        out(f"updated {docs_path}")
    return 0
