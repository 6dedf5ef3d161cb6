"""The sidecar process: connects to the JVM, serves control calls until told to stop or orphaned.

Start-up (the JVM has started a py4j GatewayServer on loopback and created the request region):

1. read the auth token from a file or stdin (never argv or the environment, which other users
   can read), connect to the GatewayServer with it;
2. compare transport protocol versions (`protocolVersion()` on the JVM's entry point) and exit
   with `EXIT_PROTOCOL_MISMATCH` and one clear line if they differ;
3. attach the request region (`requestRegion()`), create the response region, start a py4j
   callback server on loopback (port chosen by the OS, same token) and hand the JVM its port, the
   response region's path and the `SidecarControl` object (`attach(...)`).

Then the main thread only watches: it exits on `shutdown()`, on SIGTERM/SIGINT/SIGHUP (also sent by
the kernel when the parent dies) or when the JVM's pid disappears; every path removes both region
files.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path

from py4j.java_gateway import CallbackServerParameters, GatewayParameters, JavaGateway

import accelerator
from accelerator.sidecar import PROTOCOL_VERSION, shm
from accelerator.sidecar.arguments import add_arguments
from accelerator.sidecar.control import SidecarControl
from accelerator.sidecar.parent import ParentWatch, signal_on_parent_death

log = logging.getLogger("accelerator.sidecar")

LOOPBACK = "127.0.0.1"
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_PROTOCOL_MISMATCH = 3
WATCH_INTERVAL_SECONDS = 0.2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m accelerator.sidecar", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace, token: str | None = None) -> int:
    """Runs the sidecar; `token`: the auth token when the fork server already has it (else it is read
    from `args.token_file`)."""
    logging.basicConfig(stream=sys.stderr, level=args.log_level,
                        format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("py4j").setLevel(logging.WARNING)
    stop = threading.Event()
    received = install_stop_handlers()
    signal_on_parent_death(signal.SIGTERM)
    watch = ParentWatch(args.jvm_pid)

    gateway = requests = responses = None
    try:
        token = token or _read_token(args.token_file)
        gateway = _connect(args.port, token)
        jvm = gateway.entry_point
        jvm_protocol = jvm.protocolVersion()
        if jvm_protocol != PROTOCOL_VERSION:
            log.error("transport protocol mismatch: the flink-accelerator jar speaks %s, this"
                      " accelerator package %s speaks %s. Install the package version that matches"
                      " the jar", jvm_protocol, accelerator.__version__, PROTOCOL_VERSION)
            return EXIT_PROTOCOL_MISMATCH
        requests = shm.SharedRegion.attach(jvm.requestRegion())
        responses = shm.SharedRegion.create("response")
        control = SidecarControl(requests, responses, stop.set)
        gateway.start_callback_server(CallbackServerParameters(
            address=LOOPBACK, port=0, auth_token=token,
            daemonize=True, daemonize_connections=True))
        callback_server = gateway.get_callback_server()
        # py4j calls listen() only once its server thread runs; listen now, so that the JVM's first
        # call cannot be refused.
        callback_server.server_socket.listen()
        jvm.attach(callback_server.get_listening_port(), responses.path, accelerator.__version__, control)
        log.info("sidecar ready: accelerator %s, protocol %s, python %s", accelerator.__version__,
                 PROTOCOL_VERSION, sys.version.split()[0])
        return _watch(stop, watch, received)
    except Exception:
        log.exception("sidecar failed")
        return EXIT_FAILED
    finally:
        _clean_up(gateway, requests, responses)


def _read_token(token_file: str) -> str:
    token = (sys.stdin.readline() if token_file == "-" else Path(token_file).read_text(encoding="ascii")).strip()
    if not token:
        raise ValueError(f"no auth token in {'stdin' if token_file == '-' else token_file}")
    return token


def _connect(port: int, token: str) -> JavaGateway:
    return JavaGateway(gateway_parameters=GatewayParameters(
        address=LOOPBACK, port=port, auth_token=token, auto_convert=False, auto_field=False,
        eager_load=True))


class ReceivedSignal:
    """The stop signal a handler saw. A handler only stores it: Python runs a handler between two
    bytecodes of the main thread, so one that took a lock (setting an Event does) deadlocks the
    sidecar when a second signal arrives while the first handler holds it (a TaskManager's death
    sends SIGTERM from the kernel and from the fork server), and the sidecar outlives its JVM."""

    def __init__(self):
        self.signum: int | None = None

    def __call__(self, signum: int, _frame) -> None:
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def install_stop_handlers() -> ReceivedSignal:
    """Handlers for the signals that stop the sidecar; the main thread's watch loop acts on them."""
    received = ReceivedSignal()
    for signum in STOP_SIGNALS:
        signal.signal(signum, received)
    return received


def _watch(stop: threading.Event, watch: ParentWatch, received: ReceivedSignal) -> int:
    while not stop.wait(WATCH_INTERVAL_SECONDS):
        if received.signum is not None:
            log.info("exiting: received %s", signal.Signals(received.signum).name)
            return EXIT_OK
        reason = watch.gone()
        if reason:
            log.warning("exiting: %s", reason)
            return EXIT_FAILED
    log.info("exiting")
    return EXIT_OK


def _clean_up(gateway: JavaGateway | None, requests: shm.SharedRegion | None,
              responses: shm.SharedRegion | None) -> None:
    """Removes both region files (the JVM may be gone and unable to) and closes py4j's sockets."""
    for region in (responses, requests):
        if region is not None:
            region.close()
            shm.remove(region.path)
    if gateway is not None:
        gateway.shutdown_callback_server()
        gateway.close(keep_callback_server=True)
