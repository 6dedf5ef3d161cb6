"""Decodes a format's whole fuzz corpus with our decoder, in a process of its own, so that a crash
(a signal in native code) or a hang shows as this process's exit status or timeout rather than
taking the test run down. Prints one JSON line per message and option set: id, options, outcome
(see fuzz_targets) and the seconds the message took.

    python tests/fuzz/decode_worker.py json
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import load  # noqa: E402
from fuzz_targets import TARGETS  # noqa: E402


def main(format_name: str) -> None:
    target = TARGETS[format_name]
    for message in load(format_name):
        for name in target.option_sets:
            started = time.perf_counter()
            try:
                outcome = target.ours(name, message.value)
            except Exception as e:  # what must never happen: an error that is not the format's
                outcome = {"crashed": f"{type(e).__name__}: {e}"[:500]}
            seconds = time.perf_counter() - started
            print(json.dumps({"id": message.id, "options": name, "outcome": outcome, "seconds": seconds}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
