"""The structured reply the JVM receives when a control call fails, instead of a dead sidecar.

JSON object: `call` (which control call), `stage` (stage id or null), `stage_name` (the
descriptor's name or null), `sequence` (batch sequence number or null), `error` (the Python
exception class), `reason` (its message), `row` (index of the offending row within the batch, or
null when unknown) and `traceback` (the innermost frames, "file.py:line in function", outermost
first).
"""

from __future__ import annotations

import json
import os
import traceback

TRACEBACK_FRAMES = 8


def error_reply(exc: Exception, call: str, stage: int | None = None, stage_name: str | None = None,
                sequence: int | None = None) -> str:
    row = getattr(exc, "row", None)
    return json.dumps({
        "call": call,
        "stage": stage,
        "stage_name": stage_name,
        "sequence": sequence,
        "error": type(exc).__name__,
        "reason": str(exc) or type(exc).__name__,
        "row": row if isinstance(row, int) and not isinstance(row, bool) else None,
        "traceback": traceback_summary(exc),
    })


def traceback_summary(exc: BaseException) -> list[str]:
    frames = traceback.extract_tb(exc.__traceback__)[-TRACEBACK_FRAMES:]
    return [f"{_short(f.filename)}:{f.lineno} in {f.name}" for f in frames]


def _short(filename: str) -> str:
    """The last two path parts: enough to find the file, without the install location."""
    return os.path.join(*filename.split(os.sep)[-2:])
