"""Golden stage descriptors (substrait-plans/) and the test inputs beside them."""

from __future__ import annotations

import json
from pathlib import Path

from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"
INPUTS = Path(__file__).parent / "inputs"


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.sql"))


def descriptor(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def accelerated_names() -> list[str]:
    return [n for n in golden_names() if "fallback" not in descriptor(n)]


def input_messages(name: str) -> list[str]:
    """inputs/<golden>.jsonl, else inputs/<source table>.jsonl (the descriptor name's first part)."""
    own = INPUTS / f"{name}.jsonl"
    path = own if own.exists() else INPUTS / f"{descriptor(name)['name'].split('-to-')[0]}.jsonl"
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
