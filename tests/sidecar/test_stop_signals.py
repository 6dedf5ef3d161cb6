"""A sidecar's stop-signal handlers must take no lock. Python runs a handler between two bytecodes
of the main thread, so a handler that takes a lock (setting a threading.Event does) deadlocks the
sidecar when a second signal interrupts the first handler inside it: a TaskManager's death can send
SIGTERM twice (its shutdown and the kernel's parent-death signal). Seen once in CI: a sidecar asleep
on its stop event's lock 36 minutes after its JVM had gone."""

import signal
import threading

from accelerator.sidecar import server


def test_the_installed_handlers_take_no_lock_and_the_watch_loop_acts_on_them():
    previous = {signum: signal.getsignal(signum) for signum in server.STOP_SIGNALS}
    try:
        server.install_stop_handlers()
        stop = threading.Event()
        for signum in server.STOP_SIGNALS:
            handler = signal.getsignal(signum)
            with stop._cond:  # held, as by a main thread interrupted inside stop.wait() or stop.set()
                call = threading.Thread(target=handler, args=(signum, None), daemon=True)
                call.start()
                call.join(2)
                assert not call.is_alive(), f"the {signal.Signals(signum).name} handler waits for a lock"
            received = handler  # the object run() hands to its watch loop
            assert server._watch(stop, _NeverGone(), received) == server.EXIT_OK
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class _NeverGone:
    def gone(self):
        return None
