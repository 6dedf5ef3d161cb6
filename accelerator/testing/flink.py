"""A real standalone Flink cluster from the stock distribution, started with its own scripts.

Each cluster runs from a private copy of the distribution (jars hard-linked, conf/ copied) so
that its config overlay, extra jars, pid files and logs never touch the cached distribution or
another cluster running beside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import yaml

from accelerator.testing import locations, processes, sql

TERMINAL_STATES = {"FINISHED", "FAILED", "CANCELED"}
JOB_ID = re.compile(r"Job ID:\s*([0-9a-f]{32})")
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


class SqlSubmissionFailed(RuntimeError):
    """sql-client.sh rejected the script (parse, validation or submission error)."""


class JobFailed(RuntimeError):
    """A job ended in a state other than FINISHED; the message carries Flink's exception."""

    def __init__(self, job_id: str, state: str, exception: str):
        super().__init__(f"Flink job {job_id} ended {state}:\n{exception}")
        self.job_id, self.state, self.exception = job_id, state, exception


def flatten(config: Mapping, prefix: str = "") -> dict[str, object]:
    """Nested YAML (`a: {b: 1}`) to Flink's flat keys (`a.b: 1`); both spellings are valid."""
    flat: dict[str, object] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


class FlinkCluster:
    """JobManager + `taskmanagers` TaskManagers via `bin/start-cluster.sh`.

    `config` is overlaid on the distribution's `conf/config.yaml` (flat keys), `extra_jars`
    are copied into `lib/` (e.g. the accelerator's jar). `launcher` is a command that runs
    `start-cluster.sh` (given as its arguments), so the daemons start where it puts them (e.g. a
    mount namespace with a small /dev/shm). Use as a context manager or call `start()`/`stop()`.
    """

    #: How long the daemons may take to exit on SIGTERM before they get SIGKILL.
    stop_grace_s = 20.0

    def __init__(self, flink_home: Path | None = None, taskmanagers: int = 1,
                 slots_per_taskmanager: int = 2, config: Mapping[str, object] | None = None,
                 extra_jars: Iterable[Path] = (), workdir: Path | None = None,
                 launcher: Sequence[str] = ()):
        self.dist = Path(flink_home or locations.flink_home())
        self.taskmanagers = taskmanagers
        self.slots_per_taskmanager = slots_per_taskmanager
        self.overlay = dict(config or {})
        self.extra_jars = [Path(j) for j in extra_jars]
        self.launcher = list(launcher)
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="accelerator-flink-"))
        self.home = self.workdir / "flink"
        self.rest_port = 0
        self.started = False

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def rest_url(self) -> str:
        return f"http://localhost:{self.rest_port}"

    @property
    def log_dir(self) -> Path:
        return self.home / "log"

    @property
    def pid_dir(self) -> Path:
        return self.workdir / "pids"

    def __enter__(self) -> "FlinkCluster":
        return self.start()

    def __exit__(self, exc_type, *_) -> None:
        self.stop(keep_logs=exc_type is not None)

    def start(self, timeout_s: float = 120.0) -> "FlinkCluster":
        locations.require(self.dist / "bin" / "start-cluster.sh", "Flink distribution")
        self._lay_out_home()
        self.rest_port = processes.free_port()
        self._write_config()
        self.started = True
        result = subprocess.run([*self.launcher, str(self.home / "bin" / "start-cluster.sh")], cwd=self.home,
                                env=self._env(), capture_output=True, text=True)
        if result.returncode != 0:
            self.stop(keep_logs=True)
            raise RuntimeError(f"start-cluster.sh failed ({result.returncode}):\n{result.stdout}{result.stderr}")
        self._wait_ready(timeout_s)
        return self

    def _lay_out_home(self) -> None:
        """A private copy of the distribution: hard links for jars and scripts, real conf/ and log/."""
        def link_or_copy(src: str, dst: str) -> None:
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)

        shutil.copytree(self.dist, self.home, copy_function=link_or_copy, symlinks=True,
                        ignore=shutil.ignore_patterns("conf", "log"))
        shutil.copytree(self.dist / "conf", self.home / "conf")
        (self.home / "log").mkdir()
        self.pid_dir.mkdir(exist_ok=True)
        for jar in self.extra_jars:
            shutil.copy2(locations.require(jar, "extra jar"), self.home / "lib" / jar.name)

    def _write_config(self) -> None:
        conf = self.home / "conf"
        stock = yaml.safe_load((conf / "config.yaml").read_text()) or {}
        settings = flatten(stock)
        settings.update({
            "rest.address": "localhost",
            "rest.bind-address": "localhost",
            "rest.port": self.rest_port,
            "jobmanager.rpc.port": processes.free_port(),
            "taskmanager.numberOfTaskSlots": self.slots_per_taskmanager,
            "env.pid.dir": str(self.pid_dir),
        })
        settings.update(self.overlay)
        (conf / "config.yaml").write_text(
            yaml.safe_dump(settings, default_flow_style=False, sort_keys=True, width=1 << 30))
        (conf / "masters").write_text(f"localhost:{self.rest_port}\n")
        (conf / "workers").write_text("localhost\n" * self.taskmanagers)

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLINK_")}
        env["FLINK_HOME"] = str(self.home)
        return env

    def _wait_ready(self, timeout_s: float) -> None:
        """Ready = the REST API answers and all TaskManagers have registered their slots."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                overview = self.rest("/overview")
                # A TaskManager registers before it reports its slots: wait for both.
                if (overview.get("taskmanagers") == self.taskmanagers
                        and overview.get("slots-total") == self.taskmanagers * self.slots_per_taskmanager):
                    return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                logs = "\n".join(f"--- {p.name}\n{processes.tail(p)}" for p in sorted(self.log_dir.glob("*.log")))
                self.stop(keep_logs=True)
                raise TimeoutError(f"Flink cluster not ready after {timeout_s}s (logs in {self.log_dir}):\n{logs}")
            time.sleep(0.5)

    def state(self) -> dict:
        """What another process needs to find and stop this cluster (see `reattach`)."""
        return {"workdir": str(self.workdir), "rest_port": self.rest_port,
                "taskmanagers": self.taskmanagers}

    @classmethod
    def reattach(cls, state: dict) -> "FlinkCluster":
        workdir = Path(state["workdir"])
        cluster = cls(flink_home=workdir / "flink", taskmanagers=state["taskmanagers"], workdir=workdir)
        cluster.rest_port, cluster.started = state["rest_port"], True
        return cluster

    def daemon_pids(self, main_class: str = "") -> list[int]:
        """Every JVM started from this cluster's home (whose command line also names `main_class`),
        found by its command line."""
        marker = str(self.home) + "/"
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if marker in cmdline and main_class in cmdline and int(entry.name) != os.getpid():
                pids.append(int(entry.name))
        return pids

    def stop(self, keep_logs: bool = False) -> Path | None:
        """Stop every daemon (JobManager, TaskManagers, a gateway): SIGTERM to all at once, as
        `stop-cluster.sh` sends each in turn, then SIGKILL for stragglers; remove the copy.

        Returns the kept workdir when `keep_logs` (logs under `flink/log/`).
        """
        if self.started:
            processes.stop_pids(self.daemon_pids(), self.stop_grace_s)
            self.started = False
        if keep_logs:
            return self.workdir
        shutil.rmtree(self.workdir, ignore_errors=True)
        return None

    # -- REST --------------------------------------------------------------------------------
    def rest(self, path: str) -> dict:
        with urllib.request.urlopen(self.rest_url + path, timeout=10) as response:
            return json.loads(response.read())

    def operator_metric(self, job_id: str, vertex_name_part: str, metric: str) -> dict[str, float]:
        """`metric` (e.g. `accelerator.sidecarRecordsIn`) of each subtask of the job's one vertex whose
        name contains `vertex_name_part`, by subtask index (REST ids `<subtask>.<operator>.<metric>`;
        summed over the vertex's operators that have it). Empty until the JobManager has fetched the
        metric once."""
        (vertex,) = [v for v in self.rest(f"/jobs/{job_id}")["vertices"] if vertex_name_part in v["name"]]
        path = f"/jobs/{job_id}/vertices/{vertex['id']}/metrics"
        ids = [m["id"] for m in self.rest(path) if m["id"].endswith("." + metric)]
        values: dict[str, float] = {}
        if ids:
            for m in self.rest(path + "?get=" + urllib.parse.quote(",".join(ids))):
                subtask = m["id"].split(".", 1)[0]
                values[subtask] = values.get(subtask, 0.0) + float(m["value"])
        return values

    def accumulator_total(self, job_id: str, prefix: str) -> int:
        """The sum of the job's user accumulators whose names start with `prefix` (e.g. one per
        accelerated segment); unlike metrics, they outlive the job."""
        return sum(self.accumulators(job_id, prefix).values())

    def accumulators(self, job_id: str, prefix: str) -> dict[str, int]:
        """The job's user accumulators whose names start with `prefix`, by name."""
        accumulators = self.rest(f"/jobs/{job_id}/accumulators").get("user-task-accumulators", [])
        return {a["name"]: int(a["value"]) for a in accumulators if a["name"].startswith(prefix)}

    # -- SQL ---------------------------------------------------------------------------------
    def submit_sql(self, script: str, params: Mapping[str, object] | None = None,
                   timeout_s: float = 300.0) -> list[str]:
        """Run `script` through `bin/sql-client.sh -f`; returns the ids of the jobs it submitted.

        `${name}` placeholders are filled from `params` first (see `accelerator.testing.sql`).
        """
        text = sql.render(script, params or {})
        with tempfile.NamedTemporaryFile("w", suffix=".sql", dir=self.workdir, delete=False) as f:
            f.write(text)
        result = subprocess.run([str(self.home / "bin" / "sql-client.sh"), "-f", f.name], cwd=self.home,
                                env=self._env(), capture_output=True, text=True, timeout=timeout_s)
        output = ANSI_ESCAPE.sub("", result.stdout + result.stderr)
        # sql-client.sh exits 0 even when a statement fails; its [ERROR] line is the signal.
        if result.returncode != 0 or "[ERROR]" in output:
            raise SqlSubmissionFailed(f"sql-client.sh -f {f.name} failed ({result.returncode}):\n{output}")
        return JOB_ID.findall(output)

    def wait_for_job(self, job_id: str, timeout_s: float = 300.0) -> dict:
        """Block until the job reaches a terminal state; raise `JobFailed` unless FINISHED."""
        deadline = time.monotonic() + timeout_s
        while True:
            job = self.rest(f"/jobs/{job_id}")
            state = job["state"]
            if state == "FINISHED":
                return job
            if state in TERMINAL_STATES:
                raise JobFailed(job_id, state, self.job_exception(job_id))
            if time.monotonic() > deadline:
                raise TimeoutError(f"Flink job {job_id} still {state} after {timeout_s}s "
                                   f"(web UI {self.rest_url}/#/job/running/{job_id}/overview)")
            time.sleep(0.3)

    def cancel_job(self, job_id: str, timeout_s: float = 60.0) -> None:
        """Cancel a running job (e.g. an unbounded one a test has seen enough of); wait until CANCELED."""
        request = urllib.request.Request(f"{self.rest_url}/jobs/{job_id}?mode=cancel", method="PATCH")
        with urllib.request.urlopen(request, timeout=10):
            pass
        deadline = time.monotonic() + timeout_s
        while (state := self.rest(f"/jobs/{job_id}")["state"]) not in TERMINAL_STATES:
            if time.monotonic() > deadline:
                raise TimeoutError(f"Flink job {job_id} still {state} {timeout_s}s after it was cancelled")
            time.sleep(0.3)

    def job_exception(self, job_id: str) -> str:
        """The root cause Flink recorded for a failed job, as its stack trace text."""
        exceptions = self.rest(f"/jobs/{job_id}/exceptions")
        history = exceptions.get("exceptionHistory", {}).get("entries", [])
        if history:
            return history[0].get("stacktrace") or history[0].get("exceptionName", "")
        return exceptions.get("root-exception") or json.dumps(exceptions)

    def run_sql(self, script: str, params: Mapping[str, object] | None = None,
                timeout_s: float = 300.0) -> list[str]:
        """Submit `script` and wait for every job it started to finish (bounded jobs only)."""
        return self.wait_for_jobs(self.submit_sql(script, params, timeout_s), timeout_s)

    def wait_for_jobs(self, job_ids: list[str], timeout_s: float = 300.0) -> list[str]:
        """Wait for each of a script's jobs to finish (bounded jobs only); a script that submitted
        none is an error. Returns `job_ids`."""
        if not job_ids:
            raise SqlSubmissionFailed("the script submitted no job (no INSERT INTO?)")
        for job_id in job_ids:
            self.wait_for_job(job_id, timeout_s)
        return job_ids
