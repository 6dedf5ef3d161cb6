import os
import sys

from accelerator.sidecar.server import main

code = main()
# As a forked sidecar does: its regions are removed and its sockets closed by now, and the
# interpreter's own teardown (module finalizers, threads of the libraries) has nothing left to do
# but could keep a sidecar alive after its JVM died.
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
