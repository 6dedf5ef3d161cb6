"""`accelerator bench`: Nexmark queries on one preloaded Kafka topic, stock vs accelerated Flink.

One broker, one stock Flink distribution with the accelerator's jar in `lib/`, one SQL gateway.
The topic is loaded once; each round runs the floor (raw bytes in, raw bytes out, stock), then
every query on stock and on accelerated Flink (`accelerator.enabled` per job), in alternating
order. Every run writes to its own sink topic, whose digest must equal the stock run's of the
same query in every round, or the benchmark stops.

Throughput is events / (job end - job start) from the job's own REST timestamps. CPU is read
from /proc: the TaskManager JVMs with their sidecars (the number reported per million events),
and separately the JobManager, the SQL gateway (where the planner runs) and the Kafka broker.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from accelerator.bench import cpu, dataset, outputs, queries
from accelerator.compat.runner import acceleration_of
from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.kafka import KafkaBroker

STOCK, ACCELERATED, FLOOR = "stock", "accelerated", "floor"
TM_GROUP = "taskmanagers"
ROLES = {  # cpu group -> the main class in the JVM's command line
    TM_GROUP: "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
    "jobmanager": "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
    "gateway": "org.apache.flink.table.gateway.SqlGateway",
}
PLANNER_NOTE = "flink-accelerator: "
#: Size of the topic every query runs on once, unmeasured, before the rounds: enough that the
#: TaskManager's JIT compiler has mostly finished before the first measured job (with 50k events
#: it still took about half the floor's CPU in round 0 under a profile).
WARM_UP_EVENTS = 200_000
#: The TaskManager of both runs: the queries keep their state on the heap (the hashmap backend;
#: managed memory only buffers window aggregates), and q7's regular join holds every bid. At 2048m
#: with Flink's default split (40 % managed memory, about 0.5 GB of task heap) stock Flink's
#: TaskManager stopped answering heartbeats on q7 at 2 million events.
BENCH_TASKMANAGER = {"taskmanager.memory.process.size": "3072m", "taskmanager.memory.managed.fraction": "0.15"}


class OutputMismatch(AssertionError):
    """An accelerated run wrote other bytes than stock Flink (or stock differed between rounds)."""


@dataclass
class Run:
    query: str
    mode: str
    round: int
    job_id: str
    events: int  # messages in the source topic (for a bid-only source: the bids)
    seconds: float
    events_per_s: float
    cpu_s: dict[str, float]
    cpu_s_per_m: float  # TaskManagers and their sidecars, per million events
    sidecar_cpu_s_per_m: float  # of which the TaskManagers' child processes
    peak_rss_mb: float  # TaskManagers and their sidecars
    peak_processes: int
    acceleration: str
    vertices: list[str]
    output_messages: int
    output_bytes: int
    planner_notes: list[str] = field(default_factory=list)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def process_groups(cluster: FlinkCluster, broker: KafkaBroker) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {name: [] for name in ROLES}
    for pid in cluster.daemon_pids():
        line = _cmdline(pid)
        for name, main_class in ROLES.items():
            if main_class in line:
                groups[name].append(pid)
    if not groups[TM_GROUP]:
        raise RuntimeError(f"no TaskManager JVM found under {cluster.home}")
    groups["kafka"] = [broker.pid]
    return groups


class Bench:
    """Runs queries against loaded source topics: `topics` maps a source table (nexmark, bid) to
    its measured topic and message count, `warm_topics` to the small warm-up topic."""

    def __init__(self, broker: KafkaBroker, cluster: FlinkCluster, gateway: SqlGateway,
                 topics: dict[str, tuple[str, int]], warm_topics: dict[str, str], fmt: str,
                 parallelism: int, out=print):
        self.broker, self.cluster, self.gateway = broker, cluster, gateway
        self.topics, self.warm_topics, self.fmt, self.parallelism = topics, warm_topics, fmt, parallelism
        self.out = out
        self.groups = process_groups(cluster, broker)
        self.reference: dict[str, tuple[outputs.Digest, str]] = {}  # query -> (stock digest, its topic)

    def _gateway_logs(self) -> dict[Path, int]:
        return {p: p.stat().st_size for p in self.cluster.log_dir.glob("*sql-gateway*.log")}

    def _planner_notes(self, before: dict[Path, int]) -> list[str]:
        """The shim's one-line verdicts on the plan, logged by the gateway since `before`."""
        notes = []
        for path in self.cluster.log_dir.glob("*sql-gateway*.log"):
            with open(path, "rb") as f:
                f.seek(before.get(path, 0))
                for line in f.read().decode(errors="replace").splitlines():
                    if PLANNER_NOTE in line:
                        notes.append(line[line.index(PLANNER_NOTE) + len(PLANNER_NOTE):].strip())
        return notes

    def warm_up(self, query: queries.Query, mode: str) -> None:
        """One unmeasured run on a small topic: loads the classes and starts the JIT for the code
        every later run of the query shares, so the first measured run does not pay for it."""
        name = f"bench-warmup-{_topic_safe(query.name)}-{mode}-{uuid.uuid4().hex[:6]}"
        sink = self.broker.create_topic(name, self.parallelism)
        params = queries.render_params(self.broker.bootstrap, self.warm_topics[query.source], sink, self.fmt)
        settings = {"accelerator.enabled": str(mode == ACCELERATED).lower(),
                    "parallelism.default": str(self.parallelism)}
        with self.gateway.session(settings) as session:
            (job_id,) = session.execute_script(query.script, params)
        self.cluster.wait_for_job(job_id, timeout_s=3600)
        self._delete(sink)

    def run(self, query: queries.Query, mode: str, round_: int) -> Run:
        name = f"bench-{_topic_safe(query.name)}-{mode}-r{round_}-{uuid.uuid4().hex[:6]}"
        sink = self.broker.create_topic(name, self.parallelism)
        source_topic, events = self.topics[query.source]
        params = queries.render_params(self.broker.bootstrap, source_topic, sink, self.fmt)
        settings = {"accelerator.enabled": str(mode == ACCELERATED).lower(),
                    "parallelism.default": str(self.parallelism)}
        log_before = self._gateway_logs()
        with self.gateway.session(settings) as session, cpu.Sampler(self.groups) as sampler:
            (job_id,) = session.execute_script(query.script, params)
            self.cluster.wait_for_job(job_id, timeout_s=3600)
        job = self.cluster.rest(f"/jobs/{job_id}")
        seconds = (job["end-time"] - job["start-time"]) / 1000
        spent = sampler.cpu_seconds()
        digest = outputs.digest(self.broker, sink, query.ordered, query.writes_timestamps)
        vertices = [v["name"] for v in job["vertices"]]
        run = Run(query=query.name, mode=mode, round=round_, job_id=job_id, events=events, seconds=seconds,
                  events_per_s=events / seconds, cpu_s=spent, cpu_s_per_m=spent[TM_GROUP] / events * 1e6,
                  sidecar_cpu_s_per_m=sampler.children_cpu_seconds()[TM_GROUP] / events * 1e6,
                  peak_rss_mb=sampler.peak_rss_bytes[TM_GROUP] / 2**20,
                  peak_processes=sampler.peak_processes[TM_GROUP], acceleration=acceleration_of(vertices),
                  vertices=vertices, output_messages=digest.messages, output_bytes=digest.bytes,
                  planner_notes=self._planner_notes(log_before) if mode == ACCELERATED else [])
        self._check(query, mode, round_, digest, sink)
        return run

    def _check(self, query: queries.Query, mode: str, round_: int, digest: outputs.Digest, sink: str) -> None:
        """The first stock run of a query is the reference; every later run must equal it."""
        if query.name not in self.reference:
            if mode == ACCELERATED:
                raise RuntimeError("the reference run of a query must be stock Flink")
            self.reference[query.name] = (digest, sink)
            return
        expected, reference_topic = self.reference[query.name]
        if digest != expected:
            where = outputs.first_difference(self.broker, reference_topic, sink)
            raise OutputMismatch(
                f"{query.name} round {round_}: the {mode} run wrote {digest.messages} messages "
                f"({digest.bytes} bytes) to {sink}, stock Flink {expected.messages} ({expected.bytes} bytes) "
                f"to {reference_topic}; first difference: {where}. Both topics are kept on the broker "
                f"(its folder is kept too).")
        self._delete(sink)

    def _delete(self, topic: str) -> None:
        admin = self.broker.admin()
        admin.delete_topics([topic])[topic].result(timeout=60)

    def finish(self) -> None:
        for _, topic in self.reference.values():
            self._delete(topic)


def _median(values):
    return statistics.median(values) if values else None


def summarize(runs: list[Run]) -> dict:
    if not runs:
        return {}
    labels = sorted({r.acceleration for r in runs})
    return {
        "runs": len(runs),
        "acceleration": labels[0] if len(labels) == 1 else "mixed: " + ", ".join(labels),
        "seconds": _median([r.seconds for r in runs]),
        "events_per_s": _median([r.events_per_s for r in runs]),
        "cpu_s_per_m": _median([r.cpu_s_per_m for r in runs]),
        "sidecar_cpu_s_per_m": _median([r.sidecar_cpu_s_per_m for r in runs]),
        "jobmanager_cpu_s": _median([r.cpu_s.get("jobmanager", 0.0) for r in runs]),
        "gateway_cpu_s": _median([r.cpu_s.get("gateway", 0.0) for r in runs]),
        "kafka_cpu_s_per_m": _median([r.cpu_s.get("kafka", 0.0) / r.events * 1e6 for r in runs]),
        "events": runs[0].events,
        "peak_rss_mb": max(r.peak_rss_mb for r in runs),
        "peak_processes": max(r.peak_processes for r in runs),
        "output_messages": runs[0].output_messages,
        "output_bytes": runs[0].output_bytes,
    }


def _ratio(a, b):
    return a / b if a and b else None


def build_report(runs: list[Run], query_list: list[queries.Query], settings: dict) -> dict:
    floors = {source: summarize([r for r in runs if r.mode == FLOOR and r.query == _floor_name(source)])
              for source in queries.SOURCES if any(q.source == source for q in query_list)}
    rows = []
    for q in query_list:
        stock = summarize([r for r in runs if r.query == q.name and r.mode == STOCK])
        acc = summarize([r for r in runs if r.query == q.name and r.mode == ACCELERATED])
        floor = floors[q.source]
        notes = sorted({n for r in runs if r.query == q.name for n in r.planner_notes})
        rows.append({
            "query": q.name, "kind": q.kind, "source": q.source, "acceleration": acc.get("acceleration"),
            "outputs_identical": True,  # the run stops with OutputMismatch otherwise
            "stock": stock, "accelerated": acc,
            "throughput_ratio": _ratio(acc.get("events_per_s"), stock.get("events_per_s")),
            "cpu_efficiency_ratio": _ratio(stock.get("cpu_s_per_m"), acc.get("cpu_s_per_m")),
            "accelerated_time_vs_floor": _ratio(acc.get("seconds"), floor.get("seconds")),
            "accelerated_cpu_vs_floor": _ratio(acc.get("cpu_s_per_m"), floor.get("cpu_s_per_m")),
            "stock_time_vs_floor": _ratio(stock.get("seconds"), floor.get("seconds")),
            "planner_notes": notes,
        })
    return {**settings, "floor": floors.get("nexmark") or next(iter(floors.values()), {}), "floors": floors,
            "queries": rows, "runs": [asdict(r) for r in runs]}


def _floor_name(source: str) -> str:
    return queries.FLOOR if source == "nexmark" else f"{queries.FLOOR}@{source}"


def run_bench(events: int, query_names: list[str], parallelism: int, fmt: str, rounds: int,
              seed: int = 42, warm_up: bool = True, out=print, jar: Path | None = None,
              flink_config: dict[str, str] | None = None) -> dict:
    """`jar` replaces the built accelerator jar (to compare two builds on the same machine);
    `flink_config` is added to the cluster's configuration (e.g. a profiler in
    `env.java.opts.taskmanager`). Both are recorded in the report's settings."""
    query_list = [queries.load(name) for name in query_names]
    sources = sorted({q.source for q in query_list}, key=queries.SOURCES.index)
    floors = [queries.load(_floor_name(source)) for source in sources]
    started = time.time()
    load_start = [round(x, 2) for x in os.getloadavg()]
    warm_events = min(events, WARM_UP_EVENTS)
    data = {source: (dataset.ensure(events, fmt, seed, out=out, table=source),
                     dataset.ensure(warm_events, fmt, seed, out=out, table=source)) for source in sources}
    jar = locations.require(jar or locations.shim_jar(), "accelerator jar")
    with KafkaBroker(heap="1g") as broker, FlinkCluster(
            slots_per_taskmanager=max(1, parallelism), extra_jars=[jar],
            config={"accelerator.python.executable": sys.executable, **BENCH_TASKMANAGER,
                    **(flink_config or {})}) as cluster:
        gateway = SqlGateway(cluster).start()
        topics, warm_topics = {}, {}
        for source, (path, warm_path) in data.items():
            topic = broker.create_topic(f"{source}-{fmt}-{events}", parallelism)
            loading = time.monotonic()
            count = dataset.produce(broker, topic, path, parallelism)
            out(f"loaded {count:,} messages ({source} table, {events:,} events) into {topic} "
                f"({parallelism} partitions) in {time.monotonic() - loading:.0f}s")
            topics[source] = (topic, count)
            warm_topics[source] = broker.create_topic(f"{source}-{fmt}-warmup", parallelism)
            dataset.produce(broker, warm_topics[source], warm_path, parallelism)
        bench = Bench(broker, cluster, gateway, topics, warm_topics, fmt, parallelism, out)
        warming = time.monotonic()
        if warm_up:
            for q in floors:
                bench.warm_up(q, FLOOR)
            for q in query_list:
                for mode in (STOCK, ACCELERATED):
                    bench.warm_up(q, mode)
            out(f"warmed up every query on {warm_events:,} events in {time.monotonic() - warming:.0f}s")
        runs: list[Run] = []

        def record(run: Run) -> None:
            runs.append(run)
            out(f"  {run.query:<10} {run.mode:<12} round {run.round}: {run.seconds:7.2f} s "
                f"{run.events_per_s:>11,.0f} ev/s  {run.cpu_s_per_m:6.2f} CPU-s/M  "
                f"{run.peak_rss_mb:6.0f} MB  {run.acceleration:<11} {run.output_messages:,} msgs")

        for round_ in range(rounds):
            for q in floors:
                record(bench.run(q, FLOOR, round_))
            for q in query_list:
                order = (STOCK, ACCELERATED) if round_ % 2 == 0 else (ACCELERATED, STOCK)
                if q.name not in bench.reference:
                    order = (STOCK, ACCELERATED)  # the reference output is stock Flink's
                for mode in order:
                    record(bench.run(q, mode, round_))
        bench.finish()
        gateway.stop()
    settings = {
        "events": events, "format": fmt, "parallelism": parallelism, "rounds": rounds, "seed": seed,
        "warm_up": warm_up,
        "cpu_scope": "TaskManager JVMs and their child processes (sidecars), from /proc; JobManager, "
                     "SQL gateway (planner) and Kafka broker reported separately",
        "throughput": "source messages / (job end-time - start-time), Flink REST job details",
        "wall_seconds": round(time.time() - started, 1),
        # Other work on the machine shows here: the runs share its cores.
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "load_average_start": load_start,
        "jar": str(jar),
        "flink_config": dict(flink_config or {}),
    }
    return build_report(runs, query_list, settings)


def main(events: int, query_names: list[str], parallelism: int, fmt: str, rounds: int,
         report_path: Path | None, docs_path: Path | None, command: str, warm_up: bool = True,
         out=functools.partial(print, flush=True), jar: Path | None = None,
         flink_config: dict[str, str] | None = None, section: str | None = None) -> int:
    """`section`: write that section of `docs_path` (report.SECTIONS) rather than its main table."""
    import datetime
    import socket

    from accelerator.bench import report as reports

    if fmt not in dataset.nexmark.FORMATS:
        out(f"format {fmt!r}: no Nexmark encoder yet (have {', '.join(sorted(dataset.nexmark.FORMATS))})")
        return 2
    now = datetime.datetime.now(datetime.timezone.utc)
    host = socket.gethostname()
    if report_path is None:
        suffix = f"-{section}" if section else "" if parallelism == 1 else f"-p{parallelism}"
        report_path = locations.REPO_ROOT / "benchmarks" / "results" / f"{now:%Y-%m-%d}-{host}{suffix}.json"
    import signal

    # SIGTERM (a CI timeout, `kill`) unwinds like Ctrl-C, so the broker and cluster are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        result = run_bench(events, query_names, parallelism, fmt, rounds, warm_up=warm_up, out=out, jar=jar,
                           flink_config=flink_config)
    except OutputMismatch as error:
        out(f"FAIL: {error}")
        return 1
    try:
        shown_path = report_path.resolve().relative_to(locations.REPO_ROOT.resolve())
    except ValueError:
        shown_path = report_path
    result.update({"date": f"{now:%Y-%m-%d %H:%M}", "host": host, "cpus": os.cpu_count(),
                   "command": command, "json_path": str(shown_path)})
    json_path, md_path, png_path = reports.write(result, report_path)
    out("")
    out(reports.markdown(result))
    out(f"report: {json_path}, {md_path.name}, {png_path.name} (wall {result['wall_seconds']:.0f} s)")
    if docs_path is not None and section is not None:
        reports.named_section(result, png_path, docs_path, section)
        out(f"updated the {section} section of {docs_path}")
    elif docs_path is not None and parallelism == 1:
        reports.performance_page(result, md_path, png_path, docs_path)
        out(f"updated {docs_path}")
    elif docs_path is not None:
        reports.parallelism_section(result, md_path, png_path, docs_path)
        out(f"updated the parallelism-{parallelism} section of {docs_path}")
    return 0


def _topic_safe(name: str) -> str:
    """Kafka topic names allow only letters, digits, '.', '_' and '-'."""
    return name.replace("@", ".")
