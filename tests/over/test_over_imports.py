"""Each over_agg module imports on its own, in a fresh interpreter (the stage registry imports the
stage module, so an import cycle shows only when one of them comes first)."""

import pkgutil
import subprocess
import sys

import pytest

import accelerator.over

MODULES = sorted(m.name for m in pkgutil.iter_modules(accelerator.over.__path__))


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module):
    done = subprocess.run([sys.executable, "-c", f"import accelerator.over.{module}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
