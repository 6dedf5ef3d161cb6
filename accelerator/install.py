"""`accelerator install-jar`: puts this package's flink-accelerator jar into a Flink distribution's lib/.

The jar and the Python package must be the same release (the jar refuses a sidecar of another
version at handshake), so the jars ship inside the wheel as package data, one per Flink line
(`flink_lines`), and this command copies the one whose own list of releases holds the
distribution's. An installation from a source checkout (`pip install -e .`) has no packaged jars
and uses the checkout's Maven builds instead.
"""

from __future__ import annotations

import re
import shutil
import sys
import zipfile
from importlib import resources
from pathlib import Path

from accelerator import __version__, flink_lines

#: The folder of the wheel's package data that holds the jars (filled by `make dist`).
JAR_FOLDER = "_jar"
JAR_NAMES = (flink_lines.JAR_2, flink_lines.JAR_120)
#: Any release of this project's jar, as `lib/` may hold an older one.
OUR_JARS = re.compile(r"^flink-accelerator-\d[^/]*\.jar$")
FLINK_DIST_JAR = re.compile(r"^flink-dist-(?P<version>\d+\.\d+(?:\.\d+)?(?:-[A-Za-z0-9.]+)?)\.jar$")
#: The jar's build facts (java-shim BuildInfo), among them the Flink releases its planner hook runs on.
BUILD_PROPERTIES = "flink-accelerator.properties"


class InstallError(RuntimeError):
    """The jar cannot be installed there; the message says why and what to do."""


def packaged_jars() -> list[Path]:
    """The jars this package carries, one per Flink line; in a source checkout, the checkout's Maven builds."""
    packaged = resources.files("accelerator") / JAR_FOLDER
    jars = [Path(str(packaged / name)) for name in JAR_NAMES if (packaged / name).is_file()]
    if jars:
        return jars
    from accelerator.testing import locations

    jars = [locations.built_jar(name) for name in JAR_NAMES if locations.built_jar(name).is_file()]
    if jars:
        return jars
    raise InstallError(f"this installation of flink-accelerator {__version__} carries no jar ({', '.join(JAR_NAMES)}): "
                       "install the wheel that `make dist` builds (it has the jars inside), or build them in the "
                       "source checkout with `make shim`")


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


def jar_for(flink_home: Path, version: str, jars: list[Path]) -> Path:
    """The one of `jars` that hooks into Flink `version` (of the distribution at `flink_home`)."""
    supported = {jar: supported_flink_versions(jar) for jar in jars}
    for jar, versions in supported.items():
        if version in versions:
            return jar
    offered = "; ".join(f"{', '.join(versions)} ({jar.name})" for jar, versions in supported.items())
    raise InstallError(f"{flink_home} is Flink {version}; flink-accelerator {__version__} supports Flink {offered} "
                       "only (on any other version it would stay inactive), so no jar was installed")


def install_jar(flink_home: Path) -> tuple[Path, list[Path]]:
    """Copy the jar for the distribution's Flink line into `flink_home`/lib, removing any other
    flink-accelerator jar there (another release's, or this release's for the other line).

    Returns the installed jar and the jars it replaced.
    """
    flink_home = Path(flink_home)
    jar = jar_for(flink_home, flink_version(flink_home), packaged_jars())
    lib = flink_home / "lib"
    target = lib / jar.name
    replaced = sorted(p for p in lib.iterdir() if OUR_JARS.match(p.name) and p.name != jar.name)
    staging = lib / f".{jar.name}.partial"
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
