"""Flink's SQL Gateway (`bin/sql-gateway.sh`) beside a `FlinkCluster`, driven over its REST API.

`sql-client.sh -f` starts a JVM per script (seconds each); the gateway is one JVM that takes
statements in milliseconds, which is what suites of hundreds of jobs need. Same planner, same
cluster, same results.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Mapping

from accelerator.testing import processes, sql
from accelerator.testing.flink import FlinkCluster, SqlSubmissionFailed

CAUSED_BY = re.compile(r"^Caused by: (.*)$", re.M)
GATEWAY_MAIN_CLASS = "org.apache.flink.table.gateway.SqlGateway"


@dataclass(frozen=True)
class StatementResult:
    job_id: str | None
    rows: list[list]


class SqlGateway:
    """Start with `start()`; `FlinkCluster.stop()` also ends the gateway's JVM."""

    def __init__(self, cluster: FlinkCluster):
        self.cluster = cluster
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"

    def start(self, timeout_s: float = 90.0) -> "SqlGateway":
        self.port = processes.free_port()
        endpoint = "sql-gateway.endpoint.rest"
        subprocess.run([str(self.cluster.home / "bin" / "sql-gateway.sh"), "start",
                        f"-D{endpoint}.address=localhost", f"-D{endpoint}.bind-address=localhost",
                        f"-D{endpoint}.port={self.port}"],
                       cwd=self.cluster.home, env=self.cluster._env(), check=True, capture_output=True)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self._request("GET", "/v1/info")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    logs = "\n".join(processes.tail(p) for p in self.cluster.log_dir.glob("*sql-gateway*.log"))
                    raise TimeoutError(f"SQL gateway not answering on {self.url} after {timeout_s}s:\n{logs}")
                time.sleep(0.3)

    def stop(self) -> None:
        """SIGTERM to the gateway's JVM (as `sql-gateway.sh stop` sends, without the script's
        seconds of config parsing and polling); SIGKILL if it has not exited after the grace."""
        processes.stop_pids(self.cluster.daemon_pids(GATEWAY_MAIN_CLASS), self.cluster.stop_grace_s)

    def session(self, properties: Mapping[str, str] | None = None) -> "GatewaySession":
        handle = self._request("POST", "/v1/sessions", {"properties": dict(properties or {})})
        return GatewaySession(self, handle["sessionHandle"])

    def submit_sql(self, script: str, params: Mapping[str, object] | None = None) -> list[str]:
        """`FlinkCluster.submit_sql` through the gateway: `script` in a session of its own (its `SET`s
        end with it); returns the ids of the jobs it submitted."""
        with self.session() as session:
            return session.execute_script(script, params)

    def run_sql(self, script: str, params: Mapping[str, object] | None = None,
                timeout_s: float = 300.0) -> list[str]:
        """`FlinkCluster.run_sql` through the gateway: submit `script`, wait for each of its jobs to
        finish (bounded jobs only)."""
        return self.cluster.wait_for_jobs(self.submit_sql(script, params), timeout_s)

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read() or b"{}")


class GatewaySession:
    """One gateway session: `SET`s and `CREATE TABLE`s persist across its statements."""

    def __init__(self, gateway: SqlGateway, handle: str):
        self.gateway, self.handle = gateway, handle

    def __enter__(self) -> "GatewaySession":
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.gateway._request("DELETE", f"/v1/sessions/{self.handle}")
        except (urllib.error.URLError, OSError):
            pass  # the gateway is already gone; the session went with it

    def execute(self, statement: str, timeout_s: float = 300.0) -> StatementResult:
        """Run one statement; raise `SqlSubmissionFailed` with the planner's reason if it fails.
        The bound is generous: planning and submitting one INSERT took over 120 s on a 2-core
        machine running the compat suite beside the other tests."""
        base = f"/v1/sessions/{self.handle}"
        operation = self.gateway._request("POST", f"{base}/statements",
                                          {"statement": statement})["operationHandle"]
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                result = self.gateway._request("GET", f"{base}/operations/{operation}/result/0")
            except urllib.error.HTTPError as error:
                raise SqlSubmissionFailed(_gateway_error(statement, error)) from None
            if result.get("resultType") != "NOT_READY":
                rows = [row["fields"] for row in result.get("results", {}).get("data", [])]
                return StatementResult(result.get("jobID"), rows)
            if time.monotonic() > deadline:
                raise TimeoutError(f"statement still running after {timeout_s}s: {statement[:200]}")
            time.sleep(0.05)

    def execute_script(self, script: str, params: Mapping[str, object] | None = None) -> list[str]:
        """Run every statement of `script` in order; returns the ids of the jobs it submitted."""
        job_ids = []
        for statement in sql.split_statements(sql.render(script, params or {})):
            job_id = self.execute(statement).job_id
            if job_id:
                job_ids.append(job_id)
        return job_ids


def _gateway_error(statement: str, error: urllib.error.HTTPError) -> str:
    """The most specific cause the gateway reported, then the statement it refused."""
    body = error.read().decode(errors="replace")
    try:
        text = "\n".join(json.loads(body).get("errors", [body]))
    except json.JSONDecodeError:
        text = body
    causes = CAUSED_BY.findall(text)
    reason = causes[-1] if causes else text.strip().splitlines()[-1]
    return f"{reason}\n-- in statement:\n{statement}\n-- gateway said:\n{text}"
