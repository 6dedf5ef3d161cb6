"""One side of the format benchmark: its own process, confined to one CPU, that times one round
per request. Both sides run on the same CPU and the runner asks them for rounds in turn, so
"per core" means the same for the JVM (its JIT and GC threads included) and for Python (pyarrow's
thread pools included), and both see the same machine while the other work on it comes and goes.

Protocol: the process prints one JSON line when ready, then one JSON line per `round` or `check`
line it reads; `quit` ends it.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile


def benchmark_cpu() -> int:
    """The CPU both sides run on: the highest-numbered one this process may use."""
    return max(os.sched_getaffinity(0))


def _on(cpu: int):
    return lambda: os.sched_setaffinity(0, {cpu})


def run_on(cpu: int, command: list[str], timeout_s: float = 600) -> subprocess.CompletedProcess:
    """Run `command` to its end on `cpu` (the Java compiler); fail with its stderr."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, preexec_fn=_on(cpu))
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed with exit code {result.returncode}:\n{result.stderr[-4000:]}")
    return result


class Worker:
    """A running side: `ready` is its first line; `request` asks for one round."""

    def __init__(self, name: str, command: list[str], cpu: int, env: dict[str, str] | None = None):
        self.name = name
        self._stderr = tempfile.TemporaryFile(mode="w+")
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, text=True, env=env, preexec_fn=_on(cpu))
        self.ready = self._reply()

    def _reply(self) -> dict:
        line = self._process.stdout.readline()
        if not line:
            code = self._process.wait()
            self._stderr.seek(0)
            raise RuntimeError(f"the {self.name} side ended (exit code {code}) without an answer:\n"
                               f"{self._stderr.read()[-4000:]}")
        return json.loads(line)

    def request(self, command: str) -> dict:
        self._process.stdin.write(command + "\n")
        self._process.stdin.flush()
        return self._reply()

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._process.stdin.write("quit\n")
                self._process.stdin.close()
                self._process.wait(timeout=30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._stderr.close()

    def __enter__(self) -> "Worker":
        return self

    def __exit__(self, *_) -> None:
        self.close()
