"""flink-compat-tests/generate_cases.py writes every generated case folder as it is committed.

A generated case's case.yaml is the script's output too: an expectation written into the folder by
hand (an `expect_on_flink` for 2.3.0, say) and not into the script's tables is lost at the next
regeneration, so a rerun into a scratch folder must give back every committed generated folder.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import yaml

from accelerator.testing import locations

COMPAT = locations.REPO_ROOT / "flink-compat-tests"


def _generator():
    spec = importlib.util.spec_from_file_location("generate_cases", COMPAT / "generate_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_rerun_gives_back_every_committed_generated_case(tmp_path, monkeypatch):
    generator = _generator()
    monkeypatch.setattr(generator, "CASES_DIR", tmp_path)
    generator.main()
    prefixes = (generator.FUNCTION_PREFIX, generator.TYPE_PREFIX, generator.CAST_PREFIX, generator.TRY_CAST_PREFIX)
    committed = sorted(p.name for p in (COMPAT / "cases").iterdir() if p.name.startswith(prefixes))
    assert sorted(p.name for p in tmp_path.iterdir()) == committed
    for name in committed:
        ours, theirs = _files(COMPAT / "cases" / name), _files(tmp_path / name)
        assert sorted(theirs) == sorted(ours), name
        for relative, path in ours.items():
            if relative == "case.yaml":  # the settings, however the file lays them out
                assert yaml.safe_load(theirs[relative].read_text()) == yaml.safe_load(path.read_text()), name
            else:
                assert theirs[relative].read_bytes() == path.read_bytes(), f"{name}/{relative}"

