"""Each sidecar module imports on its own, in a fresh interpreter (stages.py imports the stage
kinds that register through it, so an import cycle shows only when one of them comes first)."""

import pkgutil
import subprocess
import sys

import pytest

import accelerator.sidecar

MODULES = sorted(m.name for m in pkgutil.iter_modules(accelerator.sidecar.__path__) if not m.name.startswith("_"))


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module):
    done = subprocess.run([sys.executable, "-c", f"import accelerator.sidecar.{module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
