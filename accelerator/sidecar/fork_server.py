"""The sidecar fork server: a TaskManager JVM runs one at a time, for one interpreter; it imports
the sidecar's modules once and then forks every sidecar from itself. A sidecar so starts in a few
milliseconds instead of paying the interpreter's and the libraries' start-up (about half a
CPU-second: pyarrow, DataFusion, numpy, py4j) for every task that runs a stage.

Protocol, one JSON object per line; the JVM writes requests to stdin, the server answers on stdout:

    <- {"ready": <server pid>, "version": <accelerator version>}     once, after the imports
    -> {"fork": <id>, "args": [<sidecar arguments>], "token": <py4j auth token>}
    <- {"forked": <id>, "pid": <sidecar pid>}  or  {"failed": <id>, "error": <why>}
    -> {"signal": <sidecar pid>, "signum": <n>}    delivered only to a sidecar not yet reaped
    <- {"output": <sidecar pid>, "line": <text>}   each line the sidecar prints (stdout and stderr)
    <- {"exited": <sidecar pid>, "code": <n>}      after its last output line; n as Java's
                                                   Process.exitValue (128 + signal when killed)

The server stays single-threaded (forking a process with Python threads is unsafe) and never
runs a stage itself. When its stdin ends (the JVM exited, or retired it: a job named another
interpreter and this server's last sidecar exited; SidecarForkServer.java) or it gets SIGTERM, it
sends SIGTERM to its sidecars and exits; each sidecar also has the kernel's parent-death signal
for the server and watches the JVM's pid, as a directly started one does.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import selectors
import signal
import sys
import time
from dataclasses import dataclass, field

import accelerator
# The formats a stage loads when it opens: imported before any fork, so no sidecar pays for them.
from accelerator.formats import avro, csv, json as json_format, protobuf, raw  # noqa: F401
from accelerator.sidecar import server as sidecar_server
from accelerator.sidecar import shm
from accelerator.sidecar.arguments import add_arguments
from accelerator.sidecar.parent import signal_on_parent_death

log = logging.getLogger("accelerator.sidecar.fork_server")

READ_CHUNK = 65536
EXIT_GRACE_S = 5.0


@dataclass
class Sidecar:
    """A forked sidecar: its output pipe (read end), the unfinished last line, its exit code."""

    pid: int
    output: int
    partial: bytearray = field(default_factory=bytearray)
    code: int | None = None
    output_open: bool = True


class ForkServer:
    """The server's one loop: requests on stdin, sidecars' output pipes and SIGCHLD (through a
    wakeup pipe), in one thread; events go to `out` (stdout)."""

    def __init__(self, out=None, jvm_pid: int | None = None):
        self._out = out or sys.stdout
        #: The TaskManager JVM that started this server (its parent), whose regions it sweeps once gone.
        self._jvm_pid = jvm_pid
        self._selector = selectors.DefaultSelector()
        self._sidecars: dict[int, Sidecar] = {}
        self._requests = bytearray()
        self._running = True
        self._jvm_gone = False
        self._wakeup_read, self._wakeup_write = os.pipe()
        os.set_blocking(self._wakeup_write, False)
        os.set_blocking(self._wakeup_read, False)

    # -- the loop ------------------------------------------------------------------------------

    def serve(self) -> int:
        signal.set_wakeup_fd(self._wakeup_write, warn_on_full_buffer=False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, lambda *_: self._stop())
        self._selector.register(sys.stdin.fileno(), selectors.EVENT_READ, self._read_requests)
        self._selector.register(self._wakeup_read, selectors.EVENT_READ, self._on_signal)
        try:
            self._send({"ready": os.getpid(), "version": accelerator.__version__})
            while self._running:
                for key, _ in self._selector.select():
                    key.data()
                    if not self._running:
                        break
        finally:
            # Also when the JVM is gone and writing to it failed: no sidecar and no file outlives it.
            self._terminate_all()
            self._remove_regions_if_jvm_gone()
        return 0

    def _stop(self) -> None:
        self._running = False

    def _send(self, event: dict) -> None:
        if self._jvm_gone:
            return
        try:
            self._out.write(json.dumps(event) + "\n")
            self._out.flush()
        except (BrokenPipeError, ValueError):  # ValueError: the stream was closed after a broken pipe
            # The JVM closed its end (it died): nobody to tell anything; stop, and clean up after it.
            self._jvm_gone = True
            _silence(self._out)
            self._stop()

    # -- requests ------------------------------------------------------------------------------

    def _read_requests(self) -> None:
        chunk = os.read(sys.stdin.fileno(), READ_CHUNK)
        if not chunk:
            self._stop()
            return
        self._requests += chunk
        while b"\n" in self._requests:
            line, _, rest = bytes(self._requests).partition(b"\n")
            self._requests = bytearray(rest)
            if line.strip():
                self._handle(json.loads(line))

    def _handle(self, request: dict) -> None:
        if "fork" in request:
            try:
                pid = self._fork(request["args"], request["token"])
            except Exception as e:  # noqa: BLE001 - the JVM reports it with the request
                self._send({"failed": request["fork"], "error": f"{type(e).__name__}: {e}"})
            else:
                self._send({"forked": request["fork"], "pid": pid})
        elif "signal" in request:
            sidecar = self._sidecars.get(request["signal"])
            if sidecar is not None and sidecar.code is None:
                os.kill(sidecar.pid, request["signum"])
        else:
            log.warning("ignoring an unknown request: %s", sorted(request))

    def _fork(self, args: list[str], token: str) -> int:
        parsed = _parse_sidecar_arguments(args)
        read_end, write_end = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            self._become_sidecar(write_end, parsed, token)  # never returns
        os.close(write_end)
        os.set_blocking(read_end, False)
        self._sidecars[pid] = Sidecar(pid, read_end)
        self._selector.register(read_end, selectors.EVENT_READ, lambda: self._read_output(self._sidecars[pid]))
        return pid

    def _become_sidecar(self, output: int, args: argparse.Namespace, token: str) -> None:
        """In the child: drop everything of the server, print to the output pipe, run the sidecar."""
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(signum, signal.SIG_DFL)
            self._selector.close()
            for fd in [self._wakeup_read, self._wakeup_write] + [s.output for s in self._sidecars.values()
                                                                  if s.output_open]:
                os.close(fd)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            os.dup2(output, 1)
            os.dup2(output, 2)
            os.close(output)
            logging.root.handlers.clear()  # the sidecar configures its own, at its own level
            code = sidecar_server.run(args, token=token)
        except BaseException:  # noqa: BLE001 - whatever happens, the child must not return into the server
            logging.getLogger("accelerator.sidecar").exception("sidecar failed")
        finally:
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)

    # -- sidecars' output and exits ------------------------------------------------------------

    def _read_output(self, sidecar: Sidecar) -> None:
        try:
            chunk = os.read(sidecar.output, READ_CHUNK)
        except BlockingIOError:
            return
        if chunk:
            sidecar.partial += chunk
            *lines, rest = bytes(sidecar.partial).split(b"\n")
            sidecar.partial = bytearray(rest)
            for line in lines:
                self._send({"output": sidecar.pid, "line": line.decode("utf-8", "replace")})
            return
        if sidecar.partial:
            self._send({"output": sidecar.pid, "line": sidecar.partial.decode("utf-8", "replace")})
        self._selector.unregister(sidecar.output)
        os.close(sidecar.output)
        sidecar.output_open = False
        self._report_if_done(sidecar)

    def _on_signal(self) -> None:
        try:
            while os.read(self._wakeup_read, READ_CHUNK):
                pass
        except BlockingIOError:
            pass
        self._reap()

    def _reap(self) -> None:
        while self._sidecars:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            sidecar = self._sidecars.get(pid)
            if sidecar is not None:
                sidecar.code = java_exit_code(status)
                self._reaped(sidecar)
                self._report_if_done(sidecar)

    def _report_if_done(self, sidecar: Sidecar) -> None:
        """The exit goes out once the sidecar is reaped and its output read to the end, in this order."""
        if sidecar.code is not None and not sidecar.output_open:
            del self._sidecars[sidecar.pid]
            self._send({"exited": sidecar.pid, "code": sidecar.code})

    def _reaped(self, sidecar: Sidecar) -> None:
        """A sidecar that was killed could not remove its response region: its server does."""
        for path in shm.remove_regions_of({sidecar.pid}):
            log.info("removed region %s left by sidecar %d (exit code %d)", path, sidecar.pid, sidecar.code)

    def _remove_regions_if_jvm_gone(self) -> None:
        """The JVM's request regions, when the JVM died without removing them (kill -9) and its
        sidecars could not either (stopped, then killed by this server)."""
        jvm = self._jvm_pid
        if jvm is not None and not shm.alive(jvm):
            for path in shm.remove_regions_of({jvm}):
                log.info("removed region %s left by the TaskManager JVM %d, which is gone", path, jvm)

    def _terminate_all(self) -> None:
        """SIGTERM (a sidecar then removes its shared-memory files), SIGKILL after a grace period."""
        for signum in (signal.SIGTERM, signal.SIGKILL):
            for sidecar in self._sidecars.values():
                if sidecar.code is None:
                    try:
                        os.kill(sidecar.pid, signum)
                    except ProcessLookupError:
                        pass
            deadline = time.monotonic() + EXIT_GRACE_S
            while any(s.code is None for s in self._sidecars.values()) and time.monotonic() < deadline:
                time.sleep(0.05)
                self._reap()


def _silence(stream) -> None:
    """Points a broken output stream at /dev/null, so what is left in its buffer cannot fail the
    interpreter's exit once more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def java_exit_code(status: int) -> int:
    """What Java's Process.exitValue says for this wait status: the exit code, or 128 + signal."""
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


class _ArgumentParser(argparse.ArgumentParser):
    """Raises instead of printing usage and exiting: a bad request must not end the server."""

    def error(self, message: str):
        raise ValueError(f"bad sidecar arguments: {message}")


def _parse_sidecar_arguments(args: list[str]) -> argparse.Namespace:
    parser = _ArgumentParser(prog="sidecar", add_help=False)
    add_arguments(parser)
    return parser.parse_args(args)


def warm_up() -> None:
    """Freezes the objects imported so far, so that no sidecar's garbage collection touches (and so
    copies) the server's pages."""
    gc.collect()
    gc.freeze()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m accelerator.sidecar.fork_server",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    signal_on_parent_death(signal.SIGTERM)
    # A TaskManager starts one server: what earlier, killed processes left in /dev/shm goes now.
    for path in shm.remove_orphaned_regions():
        log.info("removed region %s: the process that created it is gone", path)
    warm_up()
    return ForkServer(jvm_pid=os.getppid()).serve()


if __name__ == "__main__":
    raise SystemExit(main())
