"""Where `make setup` leaves what the local services need: everything lives under `.cache/`."""

from __future__ import annotations

import os
from pathlib import Path

from accelerator import FLINK_VERSION, __version__, flink_lines

REPO_ROOT = Path(__file__).resolve().parents[2]


class NotProvisioned(RuntimeError):
    """A service's files are missing: the fix is always the same make target."""


def cache_dir() -> Path:
    """The cache root; `ACCELERATOR_CACHE` overrides `<repo>/.cache`."""
    return Path(os.environ.get("ACCELERATOR_CACHE", REPO_ROOT / ".cache")).resolve()


def flink_version() -> str:
    """The Flink release the local clusters run: `ACCELERATOR_FLINK_VERSION` (set by
    `make compat FLINK_VERSION=<release>`), else the one the jar is built against."""
    return os.environ.get("ACCELERATOR_FLINK_VERSION", FLINK_VERSION)


def runtime_jars_dir() -> Path:
    return cache_dir() / "runtime-jars"


def flink_user_jars_dir() -> Path:
    """The jars a user adds to that release's distribution (lib/ and opt/ folders)."""
    return runtime_jars_dir() / f"flink-{flink_version()}"


def flink_home() -> Path:
    """The stock Flink binary distribution of that release, assembled from the PyPI wheels."""
    return cache_dir() / f"flink-{flink_version()}"


def kafka_broker_libs() -> Path:
    return runtime_jars_dir() / "kafka-broker"


def built_jar(name: str) -> Path:
    """Where the Maven build leaves the jar `name` (one of `flink_lines`' two)."""
    return REPO_ROOT / "java-shim" / flink_lines.BUILD_FOLDERS[name] / name


def shim_jar() -> Path:
    """The jar for the Flink line of the local clusters' release."""
    return built_jar(flink_lines.jar_name(flink_version()))


def planner_side_jar() -> Path:
    """The shim's planner-side classes, which the shim jar embeds (java-shim/pom.xml explains why)."""
    folder = flink_lines.BUILD_FOLDERS[flink_lines.jar_name(flink_version())]
    return REPO_ROOT / "java-shim" / folder / "planner-side" / f"flink-accelerator-{__version__}-planner.jar"


def require(path: Path, what: str) -> Path:
    """Return `path`, or fail saying which make target provides it."""
    if not path.exists():
        raise NotProvisioned(f"{what} not found at {path}; run `make setup` in {REPO_ROOT}")
    return path
