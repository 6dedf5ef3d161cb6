"""Fixtures shared by the reliability tests."""

from __future__ import annotations

import pytest

from accelerator.testing.sidecars import regions


@pytest.fixture(scope="module")
def regions_before() -> set[str]:
    """The accelerator region files in /dev/shm before the module's first job: leak checks count
    only files that appear after this."""
    return regions()
