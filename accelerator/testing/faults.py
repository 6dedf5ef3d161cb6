"""Fault injection into checkpointed jobs on a real Flink cluster: the bid feed a job reads while
faults hit it, checkpoints and savepoints through Flink's REST API, sidecars caught inside a call,
TaskManagers killed and replaced, and the counts (restarts, failures, messages written) that prove
a fault hit a running job."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

from accelerator.sidecar.shm import REGION_PREFIX, SEQUENCE_AT
from accelerator.testing.sidecars import sidecar_pids

#: Messages the feed writes at a time.
CHUNK = 20
#: What an accelerated operator logs when its sidecar starts (AcceleratedOperator, SidecarStateOperator).
SIDECAR_STARTED = re.compile(r"(Accelerated\[[^\]]*\]) \(subtask \d+\): sidecar pid (\d+) runs ")


class Feed:
    """Writes the source topic in chunks of CHUNK messages, on demand, up to its fixed end."""

    def __init__(self, kafka_broker, topic: str, messages: list[str]):
        self.kafka_broker, self.topic, self.messages, self.written = kafka_broker, topic, messages, 0

    def more(self, chunks: int = 1) -> None:
        for _ in range(chunks):
            if self.written >= len(self.messages):
                raise AssertionError("the feed ran out before the faults were done; make it longer")
            self.kafka_broker.produce(self.topic, self.messages[self.written:self.written + CHUNK])
            self.written += CHUNK

    def rest(self) -> None:
        self.kafka_broker.produce(self.topic, self.messages[self.written:])
        self.written = len(self.messages)


def bids(count: int, seed: int = 7, spacing_ms: int | None = None) -> list[str]:
    """Distinct bids (the url holds the index), with nulls and unicode, as JSON text; with
    `spacing_ms`, their times rise by that much from one bid to the next."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1)
    out = []
    for i in range(count):
        when = (f"2026-01-01 00:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}" if spacing_ms is None
                else (start + timedelta(milliseconds=i * spacing_ms)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3])
        out.append(json.dumps({
            "auction": rng.choice([rng.randrange(1000, 1500), None]), "bidder": rng.randrange(1000, 3000),
            "price": rng.choice([rng.randrange(1, 10_000_000), 9223372036854775807, -1]),
            "channel": rng.choice(["Apple", "Google", "ünïcode ✓", None]),
            "url": f"https://www.nexmark.com/item.htm?query={i}",
            "dateTime": when,
            "extra": "x" * rng.randrange(0, 40)}, ensure_ascii=rng.random() < 0.5))
    return out


def wait_feeding(condition, what: str, feed: Feed, timeout_s: float = 180) -> None:
    """Polls `condition` every 0.1 s; writes one more chunk of the feed each second meanwhile, so a
    (re)started job has work and a dead or hung sidecar is called, and noticed."""
    deadline = time.monotonic() + timeout_s
    fed = time.monotonic()
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout_s} s waiting for {what}"
        if time.monotonic() - fed >= 1.0:
            feed.more()
            fed = time.monotonic()
        time.sleep(0.1)


def written(kafka_broker, topic: str) -> int:
    """Messages in `topic`, in open and aborted transactions too."""
    return len(kafka_broker.consume(topic, isolation_level="read_uncommitted"))


def post(cluster, path: str, body: dict) -> dict:
    """POST `body` as JSON to the cluster's REST API; the answer."""
    request = urllib.request.Request(cluster.rest_url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


#: Why Flink refuses to trigger a checkpoint while a task of the job is still (re)starting.
NOT_ALL_TASKS_RUNNING = "Not all required tasks are currently running"


def checkpoint(cluster, job_id: str, timeout_s: float = 120) -> int:
    """Trigger a checkpoint through Flink's REST API and wait until it completes; its id. A trigger
    Flink refuses because a task is still starting (the job shows RUNNING before all its tasks do,
    e.g. just after a restart) is repeated; any other failure fails."""
    deadline = time.monotonic() + timeout_s
    trigger = post(cluster, f"/jobs/{job_id}/checkpoints", {})["request-id"]
    while True:
        result = cluster.rest(f"/jobs/{job_id}/checkpoints/{trigger}")
        if result["status"]["id"] == "COMPLETED":
            operation = result.get("operation", {})
            if "checkpointId" in operation:
                return operation["checkpointId"]
            assert NOT_ALL_TASKS_RUNNING in json.dumps(operation.get("failureCause", {})), \
                f"checkpoint {trigger} failed: {result}"
            assert time.monotonic() < deadline, f"checkpoint of {job_id}: tasks not running after {timeout_s} s"
            time.sleep(0.5)
            trigger = post(cluster, f"/jobs/{job_id}/checkpoints", {})["request-id"]
            continue
        assert time.monotonic() < deadline, f"checkpoint {trigger} not done after {timeout_s} s"
        time.sleep(0.1)


def stop_with_savepoint(cluster, job_id: str, directory: Path, timeout_s: float = 180) -> str:
    """Stop the job with a savepoint, without draining (open windows stay open, in the savepoint);
    the savepoint's path."""
    trigger = post(cluster, f"/jobs/{job_id}/stop", {"targetDirectory": directory.as_uri(), "drain": False})
    deadline = time.monotonic() + timeout_s
    while (result := cluster.rest(f"/jobs/{job_id}/savepoints/{trigger['request-id']}"))["status"]["id"] != "COMPLETED":
        assert time.monotonic() < deadline, f"savepoint of {job_id} not done after {timeout_s} s"
        time.sleep(0.2)
    assert "location" in result["operation"], f"stop-with-savepoint of {job_id} failed: {result['operation']}"
    return result["operation"]["location"]


def restarts(cluster, job_id: str) -> int:
    """Restarts of the job so far (0 before its metrics are first fetched and after it ended)."""
    return sum(int(float(m["value"])) for m in cluster.rest(f"/jobs/{job_id}/metrics?get=numRestarts"))


def failures(cluster, job_id: str) -> list[str]:
    """The stack traces of the job's failures in Flink's exception history (the cluster keeps
    `web.exception-history-size` of them, 16 by default)."""
    entries = cluster.rest(f"/jobs/{job_id}/exceptions?maxExceptions=1000")["exceptionHistory"]["entries"]
    return [e.get("stacktrace", "") for e in entries]


def taskmanager_pids(cluster) -> list[int]:
    """The cluster's TaskManager JVMs."""
    return [p for p in cluster.daemon_pids()
            if "TaskManagerRunner" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]


def replace_taskmanager(cluster) -> int:
    """SIGKILL the cluster's one TaskManager and start another (`taskmanager.sh start`), so its jobs
    can restart; the killed one's pid."""
    (taskmanager,) = taskmanager_pids(cluster)
    os.kill(taskmanager, signal.SIGKILL)
    subprocess.run([str(cluster.home / "bin" / "taskmanager.sh"), "start"], cwd=cluster.home, env=cluster._env(),
                   check=True, capture_output=True)
    return taskmanager


def freeze_inside_a_call(sidecar: int, feed: Feed, timeout_s: float = 120) -> None:
    """Stop `sidecar` (SIGSTOP) while it holds a batch: the JVM has committed a request the sidecar
    has not answered (the regions' headers hold the sequence numbers, see accelerator/sidecar/shm.py).
    Checked again once stopped, so the call is certainly unanswered when the fault hits."""
    request, response = _regions_mapped_by(sidecar)
    deadline = time.monotonic() + timeout_s
    fed = time.monotonic()
    while True:
        asked, answered = _sequence(request), _sequence(response)
        if asked > 0 and answered != asked:
            os.kill(sidecar, signal.SIGSTOP)
            if _sequence(request) > 0 and _sequence(response) != _sequence(request):
                return
            os.kill(sidecar, signal.SIGCONT)
        assert time.monotonic() < deadline, f"sidecar {sidecar} was never caught inside a call"
        if time.monotonic() - fed > 1.0:
            feed.more()
            fed = time.monotonic()
        time.sleep(0.0002)


def _regions_mapped_by(sidecar: int) -> tuple[str, str]:
    """The request region (the JVM's) and the response region (its own) `sidecar` has mapped."""
    mapped = {line.split(maxsplit=5)[-1] for line in Path(f"/proc/{sidecar}/maps").read_text().splitlines()
              if REGION_PREFIX in line}
    (request,) = [m for m in mapped if os.path.basename(m).startswith(REGION_PREFIX + "request-")]
    (response,) = [m for m in mapped if os.path.basename(m).startswith(REGION_PREFIX + "response-")]
    return request, response


def _sequence(region: str) -> int:
    """The sequence number of the batch committed in `region`; 0 while one is written or none is."""
    try:
        with open(region, "rb") as f:
            return int.from_bytes(os.pread(f.fileno(), 8, SEQUENCE_AT), "little")
    except FileNotFoundError:
        return -1


def await_new_sidecar(taskmanagers: list[int], seen: set[int], feed: Feed, timeout_s: float = 180) -> int:
    """The first sidecar of the TaskManagers not in `seen`; keeps the feed flowing meanwhile, so a
    hung sidecar is called (and noticed) and a restarted job has work."""
    found: list[int] = []
    wait_feeding(lambda: found.extend(p for p in sidecar_pids(taskmanagers) if p not in seen) or found,
                 "a new sidecar after the fault", feed, timeout_s)
    return found[0]


def taskmanager_logs(cluster) -> list[str]:
    """The TaskManagers' logs, killed ones' included, oldest first."""
    return [log.read_text(errors="replace")
            for log in sorted(cluster.log_dir.glob("*taskexecutor*.log*"), key=lambda log: log.stat().st_mtime)]


def sidecar_operators(cluster) -> dict[int, str]:
    """pid -> the accelerated operator it serves, for every sidecar the TaskManagers' logs name."""
    return {int(m[2]): m[1] for log in taskmanager_logs(cluster) for m in SIDECAR_STARTED.finditer(log)}


def running_sidecar(cluster, operator: str) -> int | None:
    """The one running sidecar of `operator` (its vertex name); None while there is not exactly one."""
    operators = sidecar_operators(cluster)
    running = [p for p in sidecar_pids(taskmanager_pids(cluster)) if operators.get(p) == operator]
    return running[0] if len(running) == 1 else None


def restored_entries(cluster, operator: str) -> list[int]:
    """The entries of each restore of the stateful accelerated operator `operator` (its vertex name),
    as its log line says (SidecarStateOperator: "restored <n> <entries> of key groups ...")."""
    pattern = re.compile(re.escape(operator) + r" \(subtask \d+\): restored (\d+) ")
    return [int(m[1]) for log in taskmanager_logs(cluster) for m in pattern.finditer(log)]


def state_entries(cluster, job_id: str, operator: str) -> float:
    """The entries (keys, windows) the stateful accelerated operator's sidecars hold now."""
    return sum(cluster.operator_metric(job_id, operator, "stateEntries").values())


def completed_checkpoints(cluster, job_id: str) -> int:
    return cluster.rest(f"/jobs/{job_id}/checkpoints")["counts"]["completed"]


def inject_stateful_faults(cluster, job_id: str, feed: Feed, kinds: list[str], stateful: list[str]) -> None:
    """One fault per entry of `kinds`: "taskmanager" (SIGKILL, replaced) or the vertex name of the
    accelerated operator whose sidecar gets SIGKILL. Each hits the running job once every operator
    of `stateful` holds state and a checkpoint of that state completed, and is proven
    by a restart (numRestarts grows) in which each of `stateful` restored more than 0 entries from
    that checkpoint (its log line). Returns once the job is back from the last one."""
    for i, kind in enumerate(kinds):
        restarted = restarts(cluster, job_id)
        restores = {op: len(restored_entries(cluster, op)) for op in stateful}
        wait_feeding(lambda: cluster.rest(f"/jobs/{job_id}")["state"] == "RUNNING"
                     and all(state_entries(cluster, job_id, op) > 0 for op in stateful),
                     f"state in {stateful} before fault {i + 1} ({kind})", feed)
        # The next completed checkpoint may have been triggered before the state was there; the one
        # after it was not.
        holding = completed_checkpoints(cluster, job_id) + 2
        wait_feeding(lambda: completed_checkpoints(cluster, job_id) >= holding,
                     f"a checkpoint of that state before fault {i + 1} ({kind})", feed)
        if kind == "taskmanager":
            replace_taskmanager(cluster)
        else:
            target: list[int] = []
            wait_feeding(lambda: target.append(running_sidecar(cluster, kind)) or target[-1],
                         f"the sidecar of {kind}", feed)
            os.kill(target[-1], signal.SIGKILL)
        # A replaced TaskManager took minutes to bring the job back on the loaded 2-core machine.
        wait_feeding(lambda: restarts(cluster, job_id) > restarted
                     and all(len(restored_entries(cluster, op)) > restores[op] for op in stateful)
                     and cluster.rest(f"/jobs/{job_id}")["state"] == "RUNNING",
                     f"the job back from a checkpoint after fault {i + 1} ({kind})", feed, timeout_s=600)
        for op in stateful:
            restored = restored_entries(cluster, op)[restores[op]:]
            assert all(entries > 0 for entries in restored), f"fault {i + 1} ({kind}): {op} restored {restored}"
