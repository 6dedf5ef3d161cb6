"""The compat suite is only worth running if it notices a wrong byte: here the sidecars run on an
interpreter whose json encoder changes one byte of every message it writes (loaded before the
sidecar through `sitecustomize`, so the product's code is untouched), and a case the suite passes
with the real encoder must fail."""

from __future__ import annotations

import stat
import sys

import pytest

from accelerator.compat import case as cases
from accelerator.compat.runner import run_suite
from accelerator.testing import locations

pytestmark = pytest.mark.services

CASE = locations.REPO_ROOT / "flink-compat-tests" / "cases" / "arithmetic_json"

SITECUSTOMIZE = '''
import pyarrow as pa

from accelerator.formats import json as json_format

_encode = json_format.encode


def _one_byte_changed(batch, row_type, options):
    """Flink's json bytes but for the last byte of each message, whose low bit is flipped."""
    values = _encode(batch, row_type, options).to_pylist()
    return pa.array([v[:-1] + bytes([v[-1] ^ 1]) if v else v for v in values], pa.binary())


json_format.encode = _one_byte_changed
'''


def test_a_json_encoder_that_changes_one_byte_fails_the_case(tmp_path):
    locations.require(locations.shim_jar(), "the flink-accelerator jar")
    case = cases.load(CASE)
    assert case.expect == "accelerated", "the case must run its json encoding in the sidecar"
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{tmp_path}${{PYTHONPATH:+:$PYTHONPATH}}" exec "{sys.executable}" "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IXUSR)

    (result,) = run_suite([case], workers=1, python_executable=str(python), out=lambda line: None)

    assert result.acceleration == "accelerated", result
    assert result.status in ("mismatch", "equivalent") and not result.passed, result
