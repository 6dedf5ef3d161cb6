"""The planner's golden window_agg descriptors (substrait-plans/window_agg/, written by the jar's
export and reviewed against their SQL) are the contract between the jar and the sidecar: every one
the planner accelerates opens as a stage, and its fire answer carries the descriptor's output row
without the key fields (the JVM emits Flink's own key object before them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accelerator.formats import types

GOLDENS = sorted((Path(__file__).parents[2] / "substrait-plans" / "window_agg").glob("*.json"))
ACCELERATED = [g for g in GOLDENS if "fallback" not in json.loads(g.read_text())]


def test_the_goldens_hold_both_phases():
    phases = {json.loads(g.read_text())["phase"] for g in ACCELERATED}
    assert phases == {"single", "global"}, [g.name for g in ACCELERATED]


@pytest.mark.parametrize("golden", ACCELERATED, ids=lambda g: g.stem)
def test_every_accelerated_golden_opens_and_fires_its_output_row(sidecar, golden):
    descriptor = json.loads(golden.read_text())
    stage = sidecar.open(descriptor)
    size = descriptor["window"]["size_ms"]
    row = {"$key": "k", "$key_group": 0, "$time": size - 1 if descriptor["phase"] == "single" else size}
    for field in descriptor["input"]["fields"][3:]:
        row[field["name"]] = None
    for aggregate in descriptor["aggregates"]:
        if descriptor["phase"] == "global" and aggregate["function"] in ("count1", "count"):
            row[aggregate["arg"]] = 1  # a partial count of one row (a window with COUNT(*) 0 is not emitted)
    assert stage.update([row]) == 0
    assert stage.flush() == [(b"k", size)]
    answer = stage.fire_batch(size - 1)
    keys = len(descriptor["keys"])
    expected = [(f["name"], types.to_arrow(types.parse(f["type"]))) for f in descriptor["output"]["fields"][keys:]]
    assert [(f.name, f.type) for f in answer.schema][2:] == expected
    assert answer.num_rows == 1
