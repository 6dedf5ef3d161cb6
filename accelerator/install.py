"""`accelerator install-jar`: puts this package's flink-accelerator jar into a Flink distribution's lib/.

The jar and the Python package must be the same release (the jar refuses a sidecar of another
version at handshake), so the jar ships inside the wheel as package data and this command copies
exactly that one. An installation from a source checkout (`pip install -e .`) has no packaged jar
and uses the checkout's Maven build instead.
"""

from __future__ import annotations

import re
import shutil
import sys
import zipfile
from importlib import resources
from pathlib import Path

from accelerator import __version__

#: The folder of the wheel's package data that holds the jar (filled by `make dist`).
JAR_FOLDER = "_jar"
JAR_NAME = f"flink-accelerator-{__version__}.jar"
#: Any release of this project's jar, as `lib/` may hold an older one.
OUR_JARS = re.compile(r"^flink-accelerator-\d[^/]*\.jar$")
FLINK_DIST_JAR = re.compile(r"^flink-dist-(?P<version>\d+\.\d+(?:\.\d+)?(?:-[A-Za-z0-9.]+)?)\.jar$")
#: The jar's build facts (java-shim BuildInfo), among them the Flink releases its planner hook runs on.
BUILD_PROPERTIES = "flink-accelerator.properties"


class InstallError(RuntimeError):
    """The jar cannot be installed there; the message says why and what to do."""


def packaged_jar() -> Path:
    """The jar this package carries; in a source checkout, the checkout's Maven build."""
    packaged = resources.files("accelerator") / JAR_FOLDER / JAR_NAME
    if packaged.is_file():
        return Path(str(packaged))
    from accelerator.testing import locations

    checkout = locations.shim_jar()
    if checkout.is_file():
        return checkout
    raise InstallError(f"this installation of flink-accelerator {__version__} carries no {JAR_NAME}: install the "
                       "wheel that `make dist` builds (it has the jar inside), or build the jar in the source "
                       "checkout with `make shim`")


def flink_version(flink_home: Path) -> str:
    """The version of the Flink distribution at `flink_home`, from its lib/flink-dist-<version>.jar."""
    lib = flink_home / "lib"
    if not (flink_home / "bin" / "config.sh").is_file() or not lib.is_dir():
        raise InstallError(f"{flink_home} is not a Flink distribution: it has no bin/config.sh and lib/ "
                           "(--flink-home must be the folder that holds bin/, conf/ and lib/)")
    versions = sorted({m.group("version") for p in lib.iterdir() if (m := FLINK_DIST_JAR.match(p.name))})
    if len(versions) != 1:
        found = ", ".join(versions) if versions else "none"
        raise InstallError(f"{flink_home} is not a Flink distribution: expected one lib/flink-dist-<version>.jar, "
                           f"found {found}")
    return versions[0]


def supported_flink_versions(jar: Path) -> list[str]:
    """The Flink releases `jar` hooks into, as the jar itself states them (any other stays stock)."""
    with zipfile.ZipFile(jar) as archive:
        text = archive.read(BUILD_PROPERTIES).decode("utf-8")
    properties = dict(line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    return properties["flink.supported.versions"].split(",")


def install_jar(flink_home: Path) -> tuple[Path, list[Path]]:
    """Copy the jar into `flink_home`/lib, removing any other flink-accelerator jar there.

    Returns the installed jar and the jars it replaced.
    """
    flink_home = Path(flink_home)
    version = flink_version(flink_home)
    jar = packaged_jar()
    supported = supported_flink_versions(jar)
    if version not in supported:
        raise InstallError(f"{flink_home} is Flink {version}; flink-accelerator {__version__} supports Flink "
                           f"{', '.join(supported)} only (on any other version it would stay inactive), so no jar "
                           "was installed")
    lib = flink_home / "lib"
    target = lib / JAR_NAME
    replaced = sorted(p for p in lib.iterdir() if OUR_JARS.match(p.name) and p.name != JAR_NAME)
    staging = lib / f".{JAR_NAME}.partial"
    shutil.copyfile(jar, staging)
    staging.replace(target)  # never a half-written jar in lib/
    for old in replaced:
        old.unlink()
    return target, replaced


def main(flink_home: str) -> int:
    try:
        target, replaced = install_jar(Path(flink_home))
    except InstallError as e:
        print(f"accelerator install-jar: {e}", file=sys.stderr)
        return 2
    for old in replaced:
        print(f"removed {old}")
    print(f"installed {target}")
    print("Set in conf/config.yaml (on every TaskManager host, with this package installed in that Python):")
    print("  accelerator.enabled: true")
    print(f"  accelerator.python.executable: {sys.executable}")
    return 0
