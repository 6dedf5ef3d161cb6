"""`accelerator bench`: Nexmark queries on preloaded Kafka topics, stock vs accelerated Flink.

One broker, one stock Flink distribution with the accelerator's jar in `lib/`, one SQL gateway.
Each source topic is loaded once. A round runs every job once: per source topic its read floor
(the topic read raw into a blackhole), and per query its stock run, its accelerated run
(`accelerator.enabled` per job) and its write floor (the query's output topic, as the first stock
run wrote it, copied raw). Round 0 runs them in that order; later rounds rotate the order and
odd ones reverse it (`schedule`), so no job always runs first or after the same neighbour. Every
query run writes to its own sink topic, whose digest must equal the first stock run's of the same
query in every round, or the benchmark stops.

Throughput is events / (job end - job start) from the job's own REST timestamps. CPU is read
from /proc: the TaskManager JVMs with their sidecars (the number reported per million events),
and separately the JobManager, the SQL gateway (where the planner runs) and the Kafka broker.
The Kafka producer's batching is read from Flink's metrics while each job runs.

With `state_backends` (`make bench-stateful`) every query runs stock and accelerated once per
state backend in a round, checkpointing every 10 s into an exactly-once Kafka sink, with the
accelerator's stateful operators on in the accelerated runs; each accelerated run is compared
with the stock run on the same backend, and the checkpoints Flink completed are recorded. No
floors run: the section compares the two runs of a query. An accelerated run that fails or writes
other output is recorded as failed (with Flink's error or the first difference) and the rounds go
on, so one failing operator does not hide the others' numbers.
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

from accelerator.bench import checkpoints, cpu, dataset, outputs, producer_metrics, queries
from accelerator.bench import report as reports
from accelerator.compat.runner import ACCELERATED_MARKER, _operators, acceleration_of
from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster, JobFailed
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.kafka import KafkaBroker

STOCK, ACCELERATED, READ_FLOOR, WRITE_FLOOR = "stock", "accelerated", "read-floor", "write-floor"
TM_GROUP = "taskmanagers"
ROLES = {  # cpu group -> the main class in the JVM's command line
    TM_GROUP: "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
    "jobmanager": "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
    "gateway": "org.apache.flink.table.gateway.SqlGateway",
}
PLANNER_NOTE = "flink-accelerator: "
#: The job accumulators (one per accelerated segment) of the messages the json decoder's fast path
#: left to its exact path.
EXACT_PATH_ACCUMULATOR = "accelerator.sidecarRecordsExactPath."
#: Size of the topic every query runs on once, unmeasured, before the rounds: enough that the
#: TaskManager's JIT compiler has mostly finished before the first measured job (with 50k events
#: it still took about half the floor's CPU in round 0 under a profile).
WARM_UP_EVENTS = 200_000
#: The TaskManager of both runs: the queries keep their state on the heap (the hashmap backend;
#: managed memory only buffers window aggregates), and q7's regular join holds every bid. At 2048m
#: with Flink's default split (40 % managed memory, about 0.5 GB of task heap) stock Flink's
#: TaskManager stopped answering heartbeats on q7 at 2 million events.
BENCH_TASKMANAGER = {"taskmanager.memory.process.size": "3072m", "taskmanager.memory.managed.fraction": "0.15"}
#: A benchmark job that fails ends failed (and is reported so) instead of restarting: with
#: checkpointing on, Flink's default restarts a failing job without end, so a run that fails on
#: every attempt (a state over its budget) kept `make bench-stateful` waiting an hour per run.
NO_RESTARTS = {"restart-strategy.type": "none"}
#: The stateful runs: Flink's state backends (`state.backend.type`) and the checkpoint interval
#: (`report.STATEFUL_OPTIONS` put the accelerator's stateful operators in the accelerated runs).
STATE_BACKENDS = ("hashmap", "rocksdb")
CHECKPOINT_INTERVAL = "10 s"
#: Flink's stateful operators as the job graph names them (`GroupAggregate[4]`): one of these in an
#: accelerated run means that operator ran stock. A LocalWindowAggregate keeps no keyed state.
STOCK_STATEFUL_OPERATORS = ("GroupAggregate", "GroupWindowAggregate", "GlobalWindowAggregate", "WindowAggregate",
                            "Deduplicate", "Rank", "Join", "IntervalJoin", "WindowJoin", "OverAggregate",
                            "WindowRank", "WindowDeduplicate")


class OutputMismatch(AssertionError):
    """An accelerated run wrote other bytes than stock Flink (or stock differed between rounds)."""


@dataclass
class Run:
    query: str  # for a write floor the query whose output it copies; for a read floor floor_read@<table>
    mode: str
    round: int
    job_id: str
    events: int  # messages in the query's source topic (for a bid-only source: the bids)
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
    producer: dict[str, float] = field(default_factory=dict)  # producer_metrics.METRICS, last seen
    exact_path_messages: int = 0  # accelerated: messages the json decoder's exact path read
    backend: str | None = None  # state.backend.type of a stateful run (checkpointed); None: not checkpointed
    checkpoints: dict = field(default_factory=dict)  # checkpoints.stats of a checkpointed run

    @property
    def events_per_cpu_s(self) -> float | None:
        """Source events per CPU-second of the TaskManagers and their sidecars."""
        return 1e6 / self.cpu_s_per_m if self.cpu_s_per_m else None


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
    """Runs queries against loaded source topics: `topics` maps generated data (queries.DATA_TABLES)
    to its measured topic and message count, `warm_topics` to its small warm-up topic."""

    def __init__(self, broker: KafkaBroker, cluster: FlinkCluster, gateway: SqlGateway,
                 topics: dict[str, tuple[str, int]], warm_topics: dict[str, str], fmt: str,
                 parallelism: int, out=print, bounds: dict[str, dict] | None = None):
        self.broker, self.cluster, self.gateway = broker, cluster, gateway
        self.topics, self.warm_topics, self.fmt, self.parallelism = topics, warm_topics, fmt, parallelism
        self.out = out
        self.bounds = bounds or {}  # query -> per-key bound of its `Query.totals`
        self.groups = process_groups(cluster, broker)
        self.write_floor = queries.load(queries.WRITE_FLOOR)
        self.reference: dict[tuple[str, str | None], tuple[outputs.Digest, str]] = {}  # (query, backend) -> stock's

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

    def _submit(self, script: str, source_topic: str, mode: str, sink: str | None, backend: str | None) -> str:
        """Submits one job through the gateway; returns its id. `sink`: None for a blackhole.
        `backend`: checkpointed on that state backend into an exactly-once sink."""
        params = queries.render_params(self.broker.bootstrap, source_topic, sink or "", self.fmt,
                                       exactly_once=backend is not None)
        settings = {"accelerator.enabled": str(mode == ACCELERATED).lower(),
                    "parallelism.default": str(self.parallelism)}
        if backend is not None:
            settings.update({"state.backend.type": backend, "execution.checkpointing.interval": CHECKPOINT_INTERVAL,
                             **{option: str(mode == ACCELERATED).lower() for option in reports.STATEFUL_OPTIONS}})
        with self.gateway.session(settings) as session:
            (job_id,) = session.execute_script(script, params)
        return job_id

    def _script(self, query: queries.Query, mode: str) -> str:
        return self.write_floor.script if mode == WRITE_FLOOR else query.script

    def warm_up(self, query: queries.Query, mode: str, backend: str | None) -> None:
        """One unmeasured run on a small topic: loads the classes and starts the JIT for the code
        every later run of the query shares, so the first measured run does not pay for it. A
        write floor warms up copying the small source topic (the same raw code path)."""
        name = f"bench-warmup-{_topic_safe(query.name)}-{mode}-{uuid.uuid4().hex[:6]}"
        sink = None if mode == READ_FLOOR else self.broker.create_topic(name, self.parallelism)
        job_id = self._submit(self._script(query, mode), self.warm_topics[query.data], mode, sink, backend)
        self.cluster.wait_for_job(job_id, timeout_s=3600)
        if sink is not None:
            self._delete(sink)

    def run(self, query: queries.Query, mode: str, round_: int, backend: str | None = None) -> Run:
        name = f"bench-{_topic_safe(query.name)}-{mode}-{backend or 'r'}-r{round_}-{uuid.uuid4().hex[:6]}"
        sink = None if mode == READ_FLOOR else self.broker.create_topic(name, self.parallelism)
        source_topic, events = self.topics[query.data]
        if mode == WRITE_FLOOR:
            source_topic = self.reference[(query.name, None)][1]  # the query's output, as stock Flink wrote it
        log_before = self._gateway_logs()
        with cpu.Sampler(self.groups) as sampler:
            job_id = self._submit(self._script(query, mode), source_topic, mode, sink, backend)
            with producer_metrics.ProducerMetrics(self.cluster, job_id) as producer:
                self.cluster.wait_for_job(job_id, timeout_s=3600)
        job = self.cluster.rest(f"/jobs/{job_id}")
        seconds = (job["end-time"] - job["start-time"]) / 1000
        spent = sampler.cpu_seconds()
        digest = outputs.digest(self.broker, sink, query.ordered, query.writes_timestamps, query.final) if sink else None
        vertices = [v["name"] for v in job["vertices"]]
        run = Run(query=query.name, mode=mode, round=round_, job_id=job_id, events=events, seconds=seconds,
                  events_per_s=events / seconds, cpu_s=spent, cpu_s_per_m=spent[TM_GROUP] / events * 1e6,
                  sidecar_cpu_s_per_m=sampler.children_cpu_seconds()[TM_GROUP] / events * 1e6,
                  peak_rss_mb=sampler.peak_rss_bytes[TM_GROUP] / 2**20,
                  peak_processes=sampler.peak_processes[TM_GROUP], acceleration=acceleration_of(vertices),
                  vertices=vertices, output_messages=digest.messages if digest else 0,
                  output_bytes=digest.bytes if digest else 0,
                  planner_notes=self._planner_notes(log_before) if mode == ACCELERATED else [],
                  producer=dict(producer.values),
                  exact_path_messages=self.cluster.accumulator_total(job_id, EXACT_PATH_ACCUMULATOR),
                  backend=backend, checkpoints=checkpoints.stats(self.cluster, job_id) if backend else {})
        if mode == WRITE_FLOOR:
            self._check_copy(query, round_, digest, sink)
        elif mode != READ_FLOOR:
            self._check(query, mode, round_, backend, digest, sink)
        return run

    def _check(self, query: queries.Query, mode: str, round_: int, backend: str | None,
               digest: outputs.Digest, sink: str) -> None:
        """The first stock run of a query (on a backend) is the reference; every later run must
        equal it. A query with `totals` is instead checked against its bound, run by run."""
        on = f" on {backend}" if backend else ""
        if query.totals:
            over = outputs.above(outputs.totals(self.broker, sink, *query.totals), self.bounds[query.name])
            if over:
                raise OutputMismatch(f"{query.name}{on} round {round_}: the {mode} run's per-{query.totals[0]} "
                                     f"totals of {query.totals[1]} in {sink} exceed the input's bids: {over}. "
                                     "The topic is kept on the broker.")
            self._delete(sink)
            return
        key = (query.name, backend)
        if key not in self.reference:
            if mode == ACCELERATED:
                raise RuntimeError("the reference run of a query must be stock Flink")
            self.reference[key] = (digest, sink)
            return
        expected, reference_topic = self.reference[key]
        if digest != expected:
            where = outputs.first_difference(self.broker, reference_topic, sink)
            raise OutputMismatch(
                f"{query.name}{on} round {round_}: the {mode} run wrote {digest.messages} messages "
                f"({digest.bytes} bytes) to {sink}, stock Flink {expected.messages} ({expected.bytes} bytes) "
                f"to {reference_topic}; first difference: {where}. Both topics are kept on the broker "
                f"(its folder is kept too).")
        self._delete(sink)

    def _check_copy(self, query: queries.Query, round_: int, digest: outputs.Digest, sink: str) -> None:
        """A write floor must have copied every message of the query's output (the partitions a
        message lands in may differ, so only count and bytes are compared)."""
        expected, reference_topic = self.reference[(query.name, None)]
        if (digest.messages, digest.bytes) != (expected.messages, expected.bytes):
            raise RuntimeError(
                f"the write floor of {query.name} (round {round_}) copied {digest.messages} messages "
                f"({digest.bytes} bytes) of {reference_topic} into {sink}, which holds {expected.messages} "
                f"({expected.bytes} bytes); its floor would be measured on other work. Both topics are kept.")
        self._delete(sink)

    def _delete(self, topic: str) -> None:
        admin = self.broker.admin()
        admin.delete_topics([topic])[topic].result(timeout=60)

    def finish(self) -> None:
        for _, topic in self.reference.values():
            self._delete(topic)


def jobs(query_list: list[queries.Query], read_floors: list[queries.Query],
         backends: tuple[str, ...] = ()) -> list[tuple[queries.Query, str, str | None]]:
    """Every job of a round in round 0's order, as (query, mode, state backend): the read floors,
    then per query its stock run (the reference its accelerated run is compared with and its
    write floor copies), its accelerated run and its write floor. With `backends`: per query and
    backend its stock and accelerated run, no floors."""
    if backends:
        return [(q, mode, b) for q in query_list for b in backends for mode in (STOCK, ACCELERATED)]
    return [(f, READ_FLOOR, None) for f in read_floors] + [
        (q, mode, None) for q in query_list for mode in (STOCK, ACCELERATED, WRITE_FLOOR)]


def schedule(round_jobs: list, round_: int, rounds: int) -> list:
    """The order of `round_jobs` in round `round_` of `rounds`: round 0 as given; each later
    round rotates the list by `round_ / rounds` of its length and odd rounds run it backwards, so
    every job runs at different positions and after different neighbours over the rounds."""
    shift = round_ * len(round_jobs) // rounds
    rotated = round_jobs[shift:] + round_jobs[:shift]
    return rotated if round_ % 2 == 0 else rotated[::-1]


def _median(values):
    return statistics.median(values) if values else None


def spread(values: list[float]) -> list[float] | None:
    """[min, median, max] of the rounds' values: how far one round's number can be off."""
    return [min(values), statistics.median(values), max(values)] if values else None


def summarize(runs: list[Run]) -> dict:
    if not runs:
        return {}
    labels = sorted({r.acceleration for r in runs})
    producer = {name: _median([r.producer[name] for r in runs if name in r.producer])
                for name in producer_metrics.METRICS}
    return {
        "runs": len(runs),
        "acceleration": labels[0] if len(labels) == 1 else "mixed: " + ", ".join(labels),
        "seconds": _median([r.seconds for r in runs]),
        "events_per_s": _median([r.events_per_s for r in runs]),
        "cpu_s_per_m": _median([r.cpu_s_per_m for r in runs]),
        "events_per_cpu_s": _median([r.events_per_cpu_s for r in runs]),
        "spread": {"events_per_s": spread([r.events_per_s for r in runs]),
                   "events_per_cpu_s": spread([r.events_per_cpu_s for r in runs])},
        "sidecar_cpu_s_per_m": _median([r.sidecar_cpu_s_per_m for r in runs]),
        "jobmanager_cpu_s": _median([r.cpu_s.get("jobmanager", 0.0) for r in runs]),
        "gateway_cpu_s": _median([r.cpu_s.get("gateway", 0.0) for r in runs]),
        "kafka_cpu_s_per_m": _median([r.cpu_s.get("kafka", 0.0) / r.events * 1e6 for r in runs]),
        "events": runs[0].events,
        "peak_rss_mb": max(r.peak_rss_mb for r in runs),
        "peak_processes": max(r.peak_processes for r in runs),
        "output_messages": runs[0].output_messages,
        "output_bytes": runs[0].output_bytes,
        "producer": {k: v for k, v in producer.items() if v is not None},
        "exact_path_share": _median([r.exact_path_messages / r.events for r in runs]),
        "checkpoints": {name: _median([r.checkpoints[name] for r in runs if r.checkpoints.get(name) is not None])
                        for name in checkpoints.NUMBERS if runs[0].checkpoints},
    }


def summarize_floor(read: list[Run], write: list[Run]) -> dict:
    """A query's floor: the read floor of its source topic plus its write floor, summed round by
    round, what a job doing the query's Kafka I/O and nothing else would cost."""
    read_by_round = {r.round: r for r in read}
    pairs = [(read_by_round[w.round], w) for w in write if w.round in read_by_round]
    if not pairs:
        return {}
    cpu_s_per_m = [r.cpu_s_per_m + w.cpu_s_per_m for r, w in pairs]
    events_per_cpu_s = [1e6 / c for c in cpu_s_per_m]
    return {"runs": len(pairs), "seconds": _median([r.seconds + w.seconds for r, w in pairs]),
            "cpu_s_per_m": _median(cpu_s_per_m), "events_per_cpu_s": _median(events_per_cpu_s),
            "spread": {"events_per_cpu_s": spread(events_per_cpu_s)},
            "read": summarize(read), "write": summarize(write)}


def stateful_operators(vertices: list[str]) -> tuple[list[str], list[str]]:
    """(the accelerated operators, the stock stateful operators) of a job graph's vertices."""
    operators = _operators(vertices)
    accelerated = [op for op in operators if op.startswith(ACCELERATED_MARKER)]
    stock = [op for op in operators if op.split("[")[0].split("(")[0] in STOCK_STATEFUL_OPERATORS]
    return accelerated, stock


def stateful_rows(runs: list[Run], query_list: list[queries.Query], backends: tuple[str, ...],
                  failures: list[dict]) -> list[dict]:
    """One row per query and state backend: stock and accelerated summaries with their checkpoints,
    which operators ran accelerated (`runs as`: `stateful accelerated` when no stateful operator
    ran stock, else `partial` with the stock ones and the planner's verdicts), the failure of an
    accelerated run if one failed."""
    rows = []
    for q in query_list:
        notes = sorted({n for r in runs if r.query == q.name for n in r.planner_notes})
        for backend in backends:
            mine = [r for r in runs if r.query == q.name and r.backend == backend]
            stock = summarize([r for r in mine if r.mode == STOCK])
            acc_runs = [r for r in mine if r.mode == ACCELERATED]
            acc = summarize(acc_runs)
            failed = [f["error"] for f in failures if f["query"] == q.name and f["backend"] == backend]
            accelerated_ops, stock_ops = stateful_operators(acc_runs[0].vertices) if acc_runs else ([], [])
            runs_as = ("failed" if failed else "partial" if stock_ops or not accelerated_ops
                       else "stateful accelerated")
            rows.append({
                "query": q.name, "backend": backend, "kind": q.kind, "source": q.source, "runs_as": runs_as,
                "acceleration": acc.get("acceleration"), "accelerated_operators": sorted(set(accelerated_ops)),
                "stock_stateful_operators": sorted(set(stock_ops)), "failed": failed[0] if failed else None,
                "outputs_identical": not failed and bool(acc_runs),
                "compared_by": (f"per-{q.totals[0]} totals of {q.totals[1]} <= input bids" if q.totals
                                else "each key's last value, stock = accelerated" if q.final
                                else "digest, stock = accelerated"),
                "stock": stock, "accelerated": acc,
                "throughput_ratio": reports.ratio(acc.get("events_per_s"), stock.get("events_per_s")),
                "cpu_efficiency_ratio": reports.ratio(stock.get("cpu_s_per_m"), acc.get("cpu_s_per_m")),
                "planner_notes": notes,
            })
    return rows


def build_report(runs: list[Run], query_list: list[queries.Query], settings: dict,
                 backends: tuple[str, ...] = (), failures: list[dict] | None = None) -> dict:
    if backends:
        return {**settings, "state_backends": list(backends), "failures": failures or [],
                "queries": stateful_rows(runs, query_list, backends, failures or []),
                "runs": [{**asdict(r), "events_per_cpu_s": r.events_per_cpu_s} for r in runs]}
    read_floors = {data: [r for r in runs if r.mode == READ_FLOOR and r.query == read_floor_name(data)]
                   for data in queries.DATA_TABLES if any(q.data == data for q in query_list)}
    rows = []
    for q in query_list:
        stock = summarize([r for r in runs if r.query == q.name and r.mode == STOCK])
        acc = summarize([r for r in runs if r.query == q.name and r.mode == ACCELERATED])
        floor = summarize_floor(read_floors[q.data], [r for r in runs if r.query == q.name and r.mode == WRITE_FLOOR])
        notes = sorted({n for r in runs if r.query == q.name for n in r.planner_notes})
        rows.append({
            "query": q.name, "kind": q.kind, "source": q.source, "acceleration": acc.get("acceleration"),
            "outputs_identical": True,  # the run stops with OutputMismatch otherwise
            "stock": stock, "accelerated": acc, "floor": floor,
            "throughput_ratio": reports.ratio(acc.get("events_per_s"), stock.get("events_per_s")),
            "cpu_efficiency_ratio": reports.ratio(stock.get("cpu_s_per_m"), acc.get("cpu_s_per_m")),
            "accelerated_time_vs_floor": reports.ratio(acc.get("seconds"), floor.get("seconds")),
            "accelerated_cpu_vs_floor": reports.ratio(acc.get("cpu_s_per_m"), floor.get("cpu_s_per_m")),
            "stock_cpu_vs_floor": reports.ratio(stock.get("cpu_s_per_m"), floor.get("cpu_s_per_m")),
            "planner_notes": notes,
        })
    return {**settings, "read_floors": {data: summarize(floor_runs) for data, floor_runs in read_floors.items()},
            "queries": rows, "runs": [{**asdict(r), "events_per_cpu_s": r.events_per_cpu_s} for r in runs]}


def read_floor_name(data: str) -> str:
    """The read floor of the topic holding `data` (the source table of that name reads it)."""
    return queries.READ_FLOOR if data == "nexmark" else f"{queries.READ_FLOOR}@{data}"


def accelerator_jar(jar: Path | None) -> Path:
    """The jar the clusters put in `lib/`: the built one unless `jar` replaces it. It is copied under
    its own name, and Flink puts `lib/` on the classpath in name order: a name that sorts after
    `flink-table-planner-loader` leaves the stock planner in charge and every "accelerated" run
    stock, so such a name is refused."""
    jar = locations.require(jar or locations.shim_jar(), "accelerator jar")
    if not jar.name.startswith("flink-accelerator-"):
        raise ValueError(f"--jar {jar}: the jar's file name must start with flink-accelerator- (it is copied into"
                         f" lib/ under its own name, and one that sorts after flink-table-planner-loader runs every"
                         f" job stock); copy it to flink-accelerator-<anything>.jar and pass that")
    return jar


def run_bench(events: int, query_names: list[str], parallelism: int, fmt: str, rounds: int,
              seed: int = 42, warm_up: bool = True, out=print, jar: Path | None = None,
              flink_config: dict[str, str] | None = None, state_backends: tuple[str, ...] = ()) -> dict:
    """`jar` replaces the built accelerator jar (to compare two builds on the same machine);
    `flink_config` is added to the cluster's configuration (e.g. a profiler in
    `env.java.opts.taskmanager`). Both are recorded in the report's settings. `state_backends`:
    the stateful runs (see the module's docstring) on each of these backends."""
    import shutil
    import tempfile

    query_list = [queries.load(name) for name in query_names]
    tables = [data for data in queries.DATA_TABLES if any(q.data == data for q in query_list)]
    read_floors = [] if state_backends else [queries.load(read_floor_name(data)) for data in tables]
    checkpoint_dir = Path(tempfile.mkdtemp(prefix="bench-checkpoints-")) if state_backends else None
    checkpointing = {"execution.checkpointing.dir": checkpoint_dir.as_uri()} if checkpoint_dir else {}
    started = time.time()
    load_start = [round(x, 2) for x in os.getloadavg()]
    warm_events = min(events, WARM_UP_EVENTS)
    data = {table: (dataset.ensure(events, fmt, seed, out=out, table=table),
                    dataset.ensure(warm_events, fmt, seed, out=out, table=table)) for table in tables}
    jar = accelerator_jar(jar)
    with KafkaBroker(heap="1g") as broker, FlinkCluster(
            slots_per_taskmanager=max(1, parallelism), extra_jars=[jar],
            config={"accelerator.python.executable": sys.executable, **BENCH_TASKMANAGER, **NO_RESTARTS,
                    **producer_metrics.FETCH_INTERVAL, **checkpointing, **(flink_config or {})}) as cluster:
        gateway = SqlGateway(cluster).start()
        topics, warm_topics = {}, {}
        for table, (path, warm_path) in data.items():
            topic = broker.create_topic(f"{table}-{fmt}-{events}", parallelism)
            loading = time.monotonic()
            count = dataset.produce(broker, topic, path, parallelism)
            out(f"loaded {count:,} messages ({table} data, {events:,} events) into {topic} "
                f"({parallelism} partitions) in {time.monotonic() - loading:.0f}s")
            topics[table] = (topic, count)
            warm_topics[table] = broker.create_topic(f"{table}-{fmt}-warmup", parallelism)
            dataset.produce(broker, warm_topics[table], warm_path, parallelism)
        bounds = {q.name: dataset.nexmark.bids_per(q.totals[0], events, seed) for q in query_list if q.totals}
        bench = Bench(broker, cluster, gateway, topics, warm_topics, fmt, parallelism, out, bounds)
        warming = time.monotonic()
        round_jobs = jobs(query_list, read_floors, state_backends)
        if warm_up:
            for q, mode, backend in round_jobs:
                # Every write floor runs the same job; a stateful query warms up on its first backend.
                if (mode != WRITE_FLOOR or q is query_list[0]) and backend in (None, *state_backends[:1]):
                    try:
                        bench.warm_up(q, mode, backend)
                    except JobFailed as error:
                        if backend is None or mode != ACCELERATED:
                            raise
                        out(f"  warm-up of {q.name} {mode} on {backend} failed: {error}")
            out(f"warmed up every query on {warm_events:,} events in {time.monotonic() - warming:.0f}s")
        runs: list[Run] = []
        failures: list[dict] = []

        def record(run: Run) -> None:
            runs.append(run)
            out(f"  {run.query:<24} {run.mode:<12} {run.backend or '':<8} round {run.round}: {run.seconds:7.2f} s "
                f"{run.events_per_s:>11,.0f} ev/s  {run.cpu_s_per_m:6.2f} CPU-s/M  "
                f"{run.peak_rss_mb:6.0f} MB  {run.acceleration:<11} {run.output_messages:,} msgs")

        for round_ in range(rounds):
            for q, mode, backend in schedule(round_jobs, round_, rounds):
                try:
                    record(bench.run(q, mode, round_, backend))
                except (OutputMismatch, JobFailed) as error:
                    if backend is None or mode != ACCELERATED:
                        raise
                    failures.append({"query": q.name, "backend": backend, "round": round_, "error": str(error)})
                    out(f"  {q.name:<24} {mode:<12} round {round_} on {backend}: FAILED: {error}")
        bench.finish()
        gateway.stop()
    if checkpoint_dir is not None:
        shutil.rmtree(checkpoint_dir, ignore_errors=True)
    settings = {
        "events": events, "format": fmt, "parallelism": parallelism, "rounds": rounds, "seed": seed,
        "warm_up": warm_up,
        "cpu_scope": "TaskManager JVMs and their child processes (sidecars), from /proc; JobManager, "
                     "SQL gateway (planner) and Kafka broker reported separately",
        "throughput": "source messages / (job end-time - start-time), Flink REST job details",
        "order": ("round 0: per query and state backend stock, accelerated" if state_backends else
                  "round 0: read floors, then per query stock, accelerated, write floor") +
                 "; later rounds rotated (odd ones reversed)",
        "wall_seconds": round(time.time() - started, 1),
        # Other work on the machine shows here: the runs share its cores.
        "load_average_end": [round(x, 2) for x in os.getloadavg()],
        "load_average_start": load_start,
        "jar": str(jar),
        "flink_config": dict(flink_config or {}),
    }
    if state_backends:
        settings["checkpointing"] = (f"every {CHECKPOINT_INTERVAL} to the local file system (full, not incremental), "
                                     "exactly-once Kafka sinks (transactions committed on checkpoints, outputs read "
                                     "read_committed); accelerated runs with " + ", ".join(reports.STATEFUL_OPTIONS))
    return build_report(runs, query_list, settings, state_backends, failures)


def main(events: int, query_names: list[str], parallelism: int, fmt: str, rounds: int,
         report_path: Path | None, docs_path: Path | None, command: str, warm_up: bool = True,
         out=functools.partial(print, flush=True), jar: Path | None = None,
         flink_config: dict[str, str] | None = None, section: str | None = None,
         state_backends: tuple[str, ...] = ()) -> int:
    """`section`: write that section of `docs_path` (report.SECTIONS) rather than its main table."""
    import datetime
    import socket

    if fmt not in dataset.nexmark.FORMATS:
        out(f"format {fmt!r}: no Nexmark encoder yet (have {', '.join(sorted(dataset.nexmark.FORMATS))})")
        return 2
    unencoded = [n for n in query_names if (queries.load(n).data, fmt) not in dataset.nexmark.ENCODERS]
    if unencoded:
        out(f"format {fmt!r}: no encoder for the data of {', '.join(unencoded)}; leave them out of --queries")
        return 2
    unknown = [b for b in state_backends if b not in STATE_BACKENDS]
    if unknown:
        out(f"state backend(s) {', '.join(unknown)}: Flink's are {', '.join(STATE_BACKENDS)}")
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
                           flink_config=flink_config, state_backends=tuple(state_backends))
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
