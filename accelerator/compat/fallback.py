"""Why each case's plan (or part of it) stays on stock Flink, as `accelerator explain` reports it.

All cases are planned once, in one JVM, before the suite runs: the same planner and rules as the
accelerated run, so the reasons are the ones its job had, without reading logs of a shared gateway.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from accelerator import explain
from accelerator.compat.case import TOPIC_PREFIX, Case
from accelerator.testing import sql

#: Any address does: explain only plans, it never connects.
PLANNING_BOOTSTRAP = "localhost:9092"


def reasons(explained: explain.Explained) -> list[str]:
    """The stock parts of a planned script, or why it could not be planned."""
    if explained.returncode == 0:
        return explained.stock_parts
    first = next((line for line in explained.stderr.splitlines() if line.strip()), "no output")
    return [f"accelerator explain failed: {first}"]


def fallback_reasons(case_list: list[Case], jar: Path) -> dict[str, list[str]]:
    """Case name -> its stock parts with reasons (empty when every part runs accelerated)."""
    with tempfile.TemporaryDirectory(prefix="accelerator-compat-explain-") as tmp:
        files = {}
        for case in case_list:
            params = {"bootstrap": PLANNING_BOOTSTRAP,
                      **{f"{TOPIC_PREFIX}{t}": f"{case.name}-{t}" for t in case.topics}}
            files[case.name] = Path(tmp, f"{case.name}.sql").resolve()
            files[case.name].write_text(sql.render(case.script, params))
        explained = explain.explain_many(list(files.values()), jar=jar)
    return {name: reasons(explained[path]) for name, path in files.items()}
