"""`accelerator compat`: runs every case on stock and on accelerated Flink and compares.

One broker, one stock Flink distribution (the accelerator jar in lib/ when it is built) and its
SQL gateway serve all cases; each case runs twice, `accelerator.enabled` false then true, on
fresh topics, and every sink topic is read fully and compared.
"""

from __future__ import annotations

import json
import re
import sys
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from accelerator.compat import case as cases
from accelerator.compat import encoding, fallback, inputs
from accelerator.compat.compare import EQUIVALENT, ERROR, IDENTICAL, MISMATCH, Comparison, compare
from accelerator.testing import locations
from accelerator.testing.flink import FlinkCluster, JobFailed, SqlSubmissionFailed
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.kafka import KafkaBroker, ProduceFailed, Record

ACCELERATED_MARKER = "Accelerated"
#: How the sidecar reports a record its format cannot decode the way Flink would (it names the
#: batch row and the option to change).
REJECTED_RECORD = "FormatError"
#: Row failures the sidecar reproduces under its own name, by what stock Flink fails with on the same
#: row: the Java exception, or for the not-null enforcer its message (2.x throws an EnforcerException,
#: 1.20 a TableException, both saying this).
SAME_ROW_FAILURES = {"SinkRowtimeNullError": "NullPointerException",
                     "SinkNotNullError": "is NOT NULL, however, a null value is being written into it"}


#: The column a not-null failure names: stock Flink's EnforcerException, the sidecar's SinkNotNullError.
_STOCK_NOT_NULL = re.compile(r"Column '([^']*)' is NOT NULL")
_OUR_NOT_NULL = re.compile(r"sink column '([^']*)' is NOT NULL")


def _same_not_null_column(stock: str, accelerated: str) -> bool:
    """True unless both are not-null failures that name different columns."""
    theirs, ours = _STOCK_NOT_NULL.search(stock), _OUR_NOT_NULL.search(accelerated)
    return theirs is None or ours is None or theirs.group(1) == ours.group(1)


#: The status of a case that does not apply to the suite's Flink release (`not_applicable_on_flink`),
#: whose stock run was rejected there as its case.yaml says; its acceleration is NOT_RUN.
NOT_APPLICABLE = "not applicable"
NOT_RUN = "not run"

#: The ship strategy of a batch exchange's edge in Flink's job plan (BatchChannelPartitioner#toString).
BATCH_EXCHANGE = "BATCH-CHANNEL"
#: Prefix of the job accumulators the accelerated operators count their records in (docs/metrics.md).
SIDECAR_RECORDS_IN = "accelerator.sidecarRecordsIn."
#: The name of an encode stage (the sink table's, then `-encode`, numbered when taken: the shim's
#: `AccelerateKafkaSinks`), whose records are rows of the operators before it, not source messages.
_ENCODE_STAGE = re.compile(r"-encode(-\d+)?$")


def source_records_in(accumulators: dict[str, int]) -> int:
    """The records the stages that read Kafka sources (whole segments, rows stages) handed their
    sidecars, from the job's `SIDECAR_RECORDS_IN` accumulators (one per stage, by its name); an
    encode stage's rows are left out, as they are not source messages."""
    return sum(n for name, n in accumulators.items() if not _ENCODE_STAGE.search(name[len(SIDECAR_RECORDS_IN):]))


@dataclass
class RunOutcome:
    """One run of a case's script: what reached the sink topics, or why it failed."""

    outputs: dict[str, list[Record]] = field(default_factory=dict)
    failure: str | None = None
    failure_trace: str = ""  # the whole exception Flink recorded, when the job failed
    topics: dict[str, str] = field(default_factory=dict)  # logical topic -> the run's topic
    duration_ms: int = 0
    acceleration: str = "stock"
    operators: list[str] = field(default_factory=list)  # every operator of the jobs' graphs, by name
    #: the ship strategy of every edge of the jobs' graphs (HASH, FORWARD, BATCH-CHANNEL, ...)
    ship_strategies: list[str] = field(default_factory=list)
    sidecar_records_in: int = 0  # the source messages the jobs' stages handed their sidecars (source_records_in)


@dataclass
class CaseResult:
    name: str
    status: str
    passed: bool
    acceleration: str
    fallback_reasons: list[str]
    stock_ms: int
    accelerated_ms: int
    messages: int
    expect: str | None = None
    detail: str = ""

    def line(self) -> str:
        verdict = "N/A " if self.status == NOT_APPLICABLE else "PASS" if self.passed else "FAIL"
        text = (f"{verdict} {self.name:<40} {self.status:<10} {self.acceleration:<11} "
                f"stock {self.stock_ms:>6} ms  accelerated {self.accelerated_ms:>6} ms  {self.messages:>5} msgs")
        shown = "\n     ".join(self.detail.splitlines()[:3])  # the report has all of it
        return text + (f"\n     {shown}" if shown else "")


def _is_io(operator: str) -> bool:
    """Kafka source and sink operators: `Source: t[1]`, `t[3]: Writer`, `t[3]: Committer`, `Sink: t[3]`."""
    return operator.startswith(("Source:", "Sink:")) or operator.endswith((": Writer", ": Committer"))


def _operators(vertex_names: list[str]) -> list[str]:
    """The operators of the job graph's vertices (a chained vertex is named `a -> b -> c`)."""
    return [op.strip() for name in vertex_names for op in name.split(" -> ")]


def missing_operators(wanted: tuple[str, ...], operators: list[str]) -> list[str]:
    """The `Accelerated[NAME]` operators of `wanted` (by NAME) that no operator of the job graph is."""
    return [f"Accelerated[{n}]" for n in wanted if f"Accelerated[{n}]" not in operators]


def unmatched_reasons(wanted: tuple[str, ...], stock_parts: list[str]) -> list[str]:
    """The texts of `wanted` that no stock part's reason contains."""
    return [w for w in wanted if not any(w in part for part in stock_parts)]


def acceleration_of(vertex_names: list[str]) -> str:
    """accelerated / partial / stock, from the operator names in the job graph's vertices."""
    operators = [op.strip() for name in vertex_names for op in name.split(" -> ")]
    processing = [op for op in operators if not _is_io(op)]
    marked = [op for op in operators if op.startswith(ACCELERATED_MARKER)]
    if not marked:
        return "stock"
    return "accelerated" if all(op.startswith(ACCELERATED_MARKER) for op in processing) else "partial"


def achieved(graph_acceleration: str, stock_parts: list[str]) -> str:
    """The acceleration a run achieved: from its job graph (`acceleration_of`), except that a job
    whose processing operators are all accelerated while the planner reported stock parts is
    `partial` (a stock part with no operator of its own: the format of a stock Kafka sink fed by
    an accelerated source, say). Reasons are ignored when explaining the case failed."""
    explained = stock_parts and not any(p.startswith("accelerator explain failed") for p in stock_parts)
    return "partial" if graph_acceleration == "accelerated" and explained else graph_acceleration


class CompatRunner:
    def __init__(self, broker: KafkaBroker, cluster: FlinkCluster, gateway: SqlGateway, parallelism: int = 1,
                 fallback_reasons: Future[dict[str, list[str]]] | None = None):
        self.broker, self.cluster, self.gateway, self.parallelism = broker, cluster, gateway, parallelism
        #: case name -> the stock parts of its plan with reasons (`compat.fallback`); planned beside
        #: the first cases (one JVM planning every case takes minutes), waited for by the first result
        self._fallback_reasons = fallback_reasons

    def reasons_of(self, case: cases.Case) -> list[str]:
        """The stock parts of the case's plan with their reasons (none when unknown)."""
        return self._fallback_reasons.result().get(case.name, []) if self._fallback_reasons else []

    def run_case(self, case: cases.Case) -> CaseResult:
        if case.not_applicable is not None:
            return self._check_not_applicable(case)
        try:
            records = self._input_records(case)
            stock = self._run(case, records, accelerated=False)
            accelerated = self._run(case, records, accelerated=True)
        except (cases.CaseError, SqlSubmissionFailed, TimeoutError, ProduceFailed) as error:
            return CaseResult(case.name, ERROR, False, "stock", self.reasons_of(case), 0, 0, 0, case.expect,
                              str(error))
        reasons = self.reasons_of(case)
        comparison = self._compare(case, stock, accelerated)
        acceleration = achieved(accelerated.acceleration, reasons)
        # Only where nothing runs stock: a stock source feeding an encode stage hands on rows, not messages.
        if comparison.passed and acceleration == "accelerated" and not accelerated.failure:
            comparison = self._check_through_sidecar(case, records, accelerated) or comparison
        missing = missing_operators(case.accelerated_operators, accelerated.operators)
        batch_exchanges = accelerated.ship_strategies.count(BATCH_EXCHANGE)
        if batch_exchanges < case.batch_exchanges:
            missing.append(f"{case.batch_exchanges} batch exchange(s) ({BATCH_EXCHANGE}; it has {batch_exchanges})")
        unexplained = unmatched_reasons(case.fallback_reasons, reasons)
        expect_met = (case.expect is None or case.expect == acceleration) and not missing and not unexplained
        detail = comparison.detail
        if comparison.passed and missing:
            detail = f"the accelerated job graph has no {', '.join(missing)}"
        elif comparison.passed and unexplained:
            detail = f"no stock part gives the reason {unexplained[0]!r} (stock parts: {reasons})"
        elif comparison.passed and not expect_met:
            detail = f"expected acceleration {case.expect!r}, got {acceleration!r}"
        return CaseResult(case.name, comparison.status, comparison.passed and expect_met, acceleration, reasons,
                          stock.duration_ms, accelerated.duration_ms,
                          sum(len(v) for v in stock.outputs.values()), case.expect, detail)

    def _check_not_applicable(self, case: cases.Case) -> CaseResult:
        """Runs only the stock side of a case that does not apply to this release: stock Flink must
        reject it (at submission or in the job), else the case.yaml entry is stale and the case fails."""
        release = locations.flink_version()
        try:
            stock = self._run(case, self._input_records(case), accelerated=False)
            rejection, stock_ms = stock.failure, stock.duration_ms
        except SqlSubmissionFailed as error:
            rejection, stock_ms = str(error), 0
        except (cases.CaseError, TimeoutError, ProduceFailed) as error:
            return CaseResult(case.name, ERROR, False, NOT_RUN, [], 0, 0, 0, case.expect, str(error))
        if rejection is None:
            return CaseResult(case.name, ERROR, False, NOT_RUN, [], stock_ms, 0, sum(map(len, stock.outputs.values())),
                              case.expect, f"stock Flink {release} ran this case, which its case.yaml says does not "
                                           f"apply there ({case.not_applicable}); remove that not_applicable_on_flink "
                                           "entry so the case is compared again")
        rejected = next((line for line in rejection.splitlines() if line.strip()), rejection)
        return CaseResult(case.name, NOT_APPLICABLE, True, NOT_RUN, [], stock_ms, 0, 0, case.expect,
                          f"{case.not_applicable} (stock Flink {release} rejects it: {rejected})")

    def _compare(self, case: cases.Case, stock: RunOutcome, accelerated: RunOutcome) -> Comparison:
        if bool(stock.failure) != case.expect_failure:
            return Comparison(ERROR, False, f"stock Flink failed: {stock.failure} (set expect_failure: true "
                                            "in case.yaml if that is the point of the case)" if stock.failure
                              else "stock Flink did not fail, but the case sets expect_failure: true")
        if stock.failure or accelerated.failure:
            if stock.failure and accelerated.failure:
                named = self._names_bad_record(case, accelerated)
                if named is not None:
                    return named
                if stock.failure == accelerated.failure:
                    return Comparison(IDENTICAL, True, f"both failed: {stock.failure}")
                if any(ours in accelerated.failure and theirs in stock.failure
                       for ours, theirs in SAME_ROW_FAILURES.items()) \
                        and _same_not_null_column(stock.failure, accelerated.failure):
                    return Comparison(EQUIVALENT, True, f"both failed on the same row: stock {stock.failure!r}; "
                                                        f"accelerated {accelerated.failure!r}")
                if REJECTED_RECORD in accelerated.failure:
                    # Same outcome (the job stops on the bad record), the accelerator's own words.
                    return Comparison(EQUIVALENT, True, f"both rejected the input: stock {stock.failure!r}; "
                                                        f"accelerated {accelerated.failure!r}")
                return Comparison(MISMATCH, False, f"failed differently: stock {stock.failure!r} "
                                                   f"vs accelerated {accelerated.failure!r}")
            which = "stock" if stock.failure else "accelerated"
            return Comparison(ERROR, False, f"only {which} failed: {stock.failure or accelerated.failure}")
        for topic in case.outputs:
            result = compare(stock.outputs[topic], accelerated.outputs[topic], ordered=case.ordered,
                             final=case.compare == "final",
                             fmt=case.formats.get(topic), tolerate=case.tolerate, timestamps=case.timestamps)
            if not result.passed or result.status != IDENTICAL:
                return Comparison(result.status, result.passed, f"topic {topic}: {result.detail}")
        return Comparison(IDENTICAL, True)

    @staticmethod
    def _names_bad_record(case: cases.Case, accelerated: RunOutcome) -> Comparison | None:
        """None unless the case names its bad record and an accelerated job's error does not."""
        if case.bad_record is None or accelerated.acceleration == "stock":
            return None
        topic, partition, offset = case.bad_record
        where = f"(topic '{accelerated.topics[topic]}', partition {partition}, offset {offset})"
        if where in accelerated.failure_trace:
            return None
        return Comparison(MISMATCH, False, f"the accelerated job's error does not name the bad record {where}: "
                                           f"{accelerated.failure}")

    def _sidecar_records_in(self, job_id: str) -> int:
        return source_records_in(self.cluster.accumulators(job_id, SIDECAR_RECORDS_IN))

    @staticmethod
    def _check_through_sidecar(case: cases.Case, records: dict[str, list[Record]],
                               accelerated: RunOutcome) -> Comparison | None:
        """None when every message of the sources went through a sidecar (the raw source hands on
        every message, tombstones and null keys too, and a fully accelerated job must not let any
        record past its sidecars; two tables on one topic read it twice); else the failed comparison."""
        messages = sum(len(recs) * case.sources_on(topic) for topic, recs in records.items())
        if accelerated.sidecar_records_in == messages:
            return None
        return Comparison(MISMATCH, False, f"the accelerated job's sidecars saw {accelerated.sidecar_records_in}"
                                           f" records; its sources hold {messages} messages")

    def _input_records(self, case: cases.Case) -> dict[str, list[Record]]:
        """Records per input topic, made once per case and produced identically for both runs."""
        out = {}
        for topic in case.inputs:
            pending = inputs.records(case, topic)
            rows = [p.row for p in pending if p.row is not None]
            encoded = iter(encoding.encode_rows(case, topic, rows, broker=self.broker, cluster=self.cluster,
                                                gateway=self.gateway) if rows else [])
            out[topic] = [_with_encoded(p, next(encoded) if p.row is not None else None) for p in pending]
        return out

    def _run(self, case: cases.Case, records: dict[str, list[Record]], accelerated: bool) -> RunOutcome:
        run = f"{'acc' if accelerated else 'stock'}-{uuid.uuid4().hex[:8]}"
        topics = {t: self.broker.create_topic(f"{case.name}-{t}-{run}", case.partitions_of(t)) for t in case.topics}
        for topic, recs in records.items():
            self.broker.produce(topics[topic], recs)
        params = {"bootstrap": self.broker.bootstrap, **{f"topic:{t}": name for t, name in topics.items()}}
        outcome = RunOutcome(topics=topics)
        settings = {"accelerator.enabled": str(accelerated).lower(), "parallelism.default": str(self.parallelism)}
        with self.gateway.session(settings) as session:
            try:
                job_ids = session.execute_script(case.script, params)
            except SqlSubmissionFailed as error:
                raise SqlSubmissionFailed(f"{case.path}/case.sql ({run}): {error}") from None
        names: list[str] = []
        for job_id in job_ids:
            try:
                job = self.cluster.wait_for_job(job_id)
            except JobFailed as failure:
                outcome.failure = _root_cause(failure.exception)
                outcome.failure_trace = failure.exception
                job = self.cluster.rest(f"/jobs/{job_id}")
            outcome.duration_ms += job.get("duration", 0)
            names += [v["name"] for v in job.get("vertices", [])]
            outcome.ship_strategies += [i.get("ship_strategy", "") for n in job.get("plan", {}).get("nodes", [])
                                        for i in n.get("inputs", [])]
            outcome.sidecar_records_in += self._sidecar_records_in(job_id)
        outcome.acceleration = acceleration_of(names)
        outcome.operators = _operators(names)
        if outcome.failure is None:
            outcome.outputs = {t: self.broker.consume(topics[t]) for t in case.outputs}
        return outcome


def _with_encoded(pending: inputs.PendingRecord, encoded: Record | None) -> Record:
    """The record to produce: Flink's encoding of its row, if it has one (the key too, unless the
    case's envelope gives its own), else its value as written."""
    if encoded is None:
        return Record(value=pending.value, key=pending.key, partition=pending.partition,
                      timestamp=pending.timestamp, headers=pending.headers)
    return Record(value=encoded.value, key=pending.key if pending.key is not None else encoded.key,
                  partition=pending.partition, timestamp=pending.timestamp, headers=pending.headers)


def _root_cause(stacktrace: str) -> str:
    """The innermost 'Caused by' line of a Java stack trace (or its first line)."""
    lines = [line for line in stacktrace.splitlines() if line.startswith("Caused by: ")]
    return (lines[-1][len("Caused by: "):] if lines else stacktrace.splitlines()[0]).strip()


def run_suite(case_list: list[cases.Case], *, workers: int = 2, parallelism: int = 1,
              report: Path | None = None, out=print, python_executable: str = sys.executable,
              flink_config: dict[str, str] | None = None) -> list[CaseResult]:
    """Runs the cases on one broker and one stock distribution with the jar; the sidecars run on
    `python_executable` (the suite's own interpreter unless a test swaps it). `flink_config` is
    added to the cluster's configuration (an option under test, for every case)."""
    jar = locations.shim_jar()
    slots = max(2, workers * parallelism * 2)
    with KafkaBroker() as broker, FlinkCluster(
            slots_per_taskmanager=slots, extra_jars=[jar] if jar.exists() else [],
            config={"taskmanager.memory.process.size": "2560m",
                    "accelerator.python.executable": python_executable, **(flink_config or {})}) as cluster:
        gateway = SqlGateway(cluster).start()
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=1) as planner, ThreadPoolExecutor(max_workers=workers) as pool:
            reasons = planner.submit(fallback.fallback_reasons, [c for c in case_list if c.not_applicable is None],
                                     jar) if jar.exists() else None
            runner = CompatRunner(broker, cluster, gateway, parallelism, reasons)
            results = []
            for result in pool.map(runner.run_case, case_list):
                out(result.line())
                results.append(result)
        # Before the services stop: a slow or failing shutdown must not lose a whole suite's results.
        if report is not None:
            write_report(report, locations.flink_version(), results)
        gateway.stop()
    not_applicable = sum(r.status == NOT_APPLICABLE for r in results)
    failed = sum(not r.passed for r in results)
    out(f"compat: {len(case_list)} cases in {time.monotonic() - started:.0f}s"
        + ("" if jar.exists() else " (no accelerator jar built: both runs are stock)"))
    out(f"{len(results) - failed - not_applicable} passed, {not_applicable} not applicable on Flink "
        f"{locations.flink_version()}, {failed} failed")
    return results


def write_report(path: Path, flink_version: str, results: list[CaseResult]) -> None:
    """The run's results as JSON: the Flink release both sides ran on, and one object per case."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"flink_version": flink_version, "cases": [asdict(r) for r in results]},
                               indent=2) + "\n")


def read_report(path: Path) -> tuple[str, list[CaseResult]]:
    """The Flink release and the case results of a report `write_report` wrote."""
    report = json.loads(path.read_text())
    return report["flink_version"], [CaseResult(**case) for case in report["cases"]]


def main(case_dirs: list[Path], pattern: str, report: Path | None, parallelism: int, workers: int,
         summary: Path | None = None, other_reports: list[Path] = (), flink_config: dict[str, str] | None = None) -> int:
    case_list = cases.discover(case_dirs, pattern)
    if not case_list:
        print(f"no cases matching {pattern!r} under {', '.join(map(str, case_dirs))}")
        return 1
    results = run_suite(case_list, workers=workers, parallelism=parallelism, report=report, flink_config=flink_config)
    if summary is not None:
        from accelerator.compat import summary as markdown

        this_release = locations.flink_version()
        others = [read_report(path) for path in other_reports]
        summary.write_text(markdown.render(results, "make compat-docs", this_release,
                                           sorted((r for r in others if r[0] != this_release), key=lambda r: r[0])))
    return 0 if all(r.passed for r in results) else 1
