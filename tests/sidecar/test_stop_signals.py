"""A sidecar's stop-signal handlers must take no lock. Python runs a handler between two bytecodes
of the main thread, so a handler that takes a lock (setting a threading.Event does) deadlocks the
sidecar when a second signal interrupts the first handler inside it: a TaskManager's death can send
SIGTERM twice (its shutdown and the kernel's parent-death signal). Seen once in CI: a sidecar asleep
on its stop event's lock 36 minutes after its JVM had gone."""

import signal
import subprocess
import sys
import textwrap
import threading

from accelerator.sidecar import server

#: Runs in a process of its own (signals, a trace function). Installs the sidecar's handlers, then
#: sends itself one stop signal; while that signal's handler runs, a trace function sends the same
#: signal again after every line the handler executes (in any function it calls, e.g. inside
#: Event.set() with the event's lock held), so the second handler runs nested inside the first at
#: every point where the first could hold something. The handlers must return.
NESTED_SIGNALS = textwrap.dedent("""
    import signal, sys
    from accelerator.sidecar import server

    signum = signal.{name}
    received = server.install_stop_handlers()
    handler = signal.getsignal(signum)
    depth, nested, done = [0], [0], [False]

    def delivering(s, frame):
        depth[0] += 1
        try:
            if depth[0] > 1:
                nested[0] += 1
            handler(s, frame)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                done[0] = True

    def trace(frame, event, arg):
        if event == "line" and depth[0] == 1 and not done[0]:
            signal.raise_signal(signum)
        return trace

    signal.signal(signum, delivering)
    sys.settrace(trace)
    signal.raise_signal(signum)
    sys.settrace(None)
    assert nested[0] > 0, "no signal arrived inside the first handler: the test proves nothing"
    assert received.signum == signum, received.signum
    print("returned", nested[0], flush=True)
""")


def test_a_stop_signal_inside_the_stop_signal_handler_does_not_deadlock():
    for signum in server.STOP_SIGNALS:
        name = signal.Signals(signum).name
        try:
            result = subprocess.run([sys.executable, "-c", NESTED_SIGNALS.format(name=name)],
                                    capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"a {name} that arrived while the {name} handler ran hung the process "
                                 "(the handler waits for something the interrupted handler holds)") from None
        assert result.returncode == 0 and result.stdout.startswith("returned "), result.stdout + result.stderr


def test_the_watch_loop_acts_on_a_received_signal():
    previous = {signum: signal.getsignal(signum) for signum in server.STOP_SIGNALS}
    try:
        received = server.install_stop_handlers()  # the object run() hands to its watch loop
        for signum in server.STOP_SIGNALS:
            assert signal.getsignal(signum) is received
            received.signum = None
            signal.getsignal(signum)(signum, None)
            assert server._watch(threading.Event(), _NeverGone(), received) == server.EXIT_OK
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class _NeverGone:
    def gone(self):
        return None
