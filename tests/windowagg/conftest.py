import sys
from pathlib import Path

import pytest

# The helpers next to these tests (the calls' client, the Java reference) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

from window_agg_client import Sidecar  # noqa: E402


@pytest.fixture
def sidecar():
    side = Sidecar()
    yield side
    side.close()
