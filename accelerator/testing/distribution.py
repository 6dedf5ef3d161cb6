"""Assembles the stock Flink binary distribution from the PyPI wheels.

The official tarball is not on a registry we can reach, but its parts are: `apache-flink`
carries bin/ and conf/, `apache-flink-libraries` carries lib/, opt/, plugins/ and
bin/bash-java-utils.jar (a wheel from 2.2 on, for the 1.20 line a source distribution holding
the same files under deps/). We download both with `pip download --no-deps` (never install them:
they pin pyarrow and py4j) and lay them out like the tarball, then add what a Flink user adds
(the Kafka SQL connector and the avro and protobuf formats to lib/, the SQL gateway that
sql-client.sh needs to opt/, and to lib/ the jar of the protobuf message classes the
compatibility cases name, compiled from flink-compat-tests/protos/ as a user compiles theirs).

The release is `locations.flink_version()` (ACCELERATOR_FLINK_VERSION, else the build's).

Usage: python -m accelerator.testing.distribution
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from accelerator import flink_lines
from accelerator.testing import locations, protobuf_oracle

WHEELS = ("apache-flink", "apache-flink-libraries")
#: Wheel member prefix -> distribution folder. Later wheels may add to the same folder.
LAYOUT = {"pyflink/bin/": "bin", "pyflink/conf/": "conf", "pyflink/lib/": "lib",
          "pyflink/opt/": "opt", "pyflink/plugins/": "plugins", "pyflink/licenses/": "licenses"}
#: The same for a source distribution's members, below its top folder.
SDIST_LAYOUT = {"deps/bin/": "bin", "deps/lib/": "lib", "deps/opt/": "opt", "deps/plugins/": "plugins",
                "deps/licenses/": "licenses"}
#: Folders of the jars java-shim/test-runtime/pom.xml fetched that a user would add to the distribution.
ADDED_JARS = ("lib", "opt")
MARKER = ".assembled"
#: The .proto files of the messages the protobuf compatibility cases and golden descriptors name.
MESSAGE_PROTOS = locations.REPO_ROOT / "flink-compat-tests" / "protos"
MESSAGES_JAR = "flink-accelerator-compat-messages.jar"


def download_wheels(dest: Path, version: str) -> list[Path]:
    """Fetch both packages of Flink `version` once (wheels, or a source distribution where a release has
    no wheel); a second call finds them and downloads nothing."""
    dest.mkdir(parents=True, exist_ok=True)
    specs = [f"{name}=={version}" for name in WHEELS]
    wheels = [find_package(dest, spec) for spec in specs]
    if all(wheels):
        return wheels
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--prefer-binary",
                    "--dest", str(dest), *specs], check=True)
    return [find_package(dest, spec, required=True) for spec in specs]


def find_package(folder: Path, spec: str, required: bool = False) -> Path | None:
    name, version = spec.split("==")
    found = sorted(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl")) or sorted(
        folder.glob(f"{name}-{version}.tar.gz"))
    if not found and required:
        raise FileNotFoundError(f"pip download left no wheel or source distribution for {spec} in {folder}")
    return found[0] if found else None


def assemble(wheels: list[Path], user_jars: Path, dest: Path) -> Path:
    """Lay the wheels out as the official tarball (bin conf lib opt plugins log) at `dest`.

    Built in a sibling folder and renamed into place, so an interrupted run never leaves a
    half-assembled distribution that looks complete.
    """
    staging = dest.with_name(dest.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for wheel in wheels:
        extract_package(wheel, staging)
    (staging / "log").mkdir(exist_ok=True)  # flink-daemon.sh does not create it; no JVM starts without it
    for folder in ADDED_JARS:
        jars = sorted((user_jars / folder).glob("*.jar"))
        if not jars:
            raise FileNotFoundError(f"no jars in {user_jars / folder}; run `make setup`")
        for jar in jars:
            shutil.copy2(jar, staging / folder / jar.name)
    write_messages_jar(staging / "lib" / MESSAGES_JAR)
    for script in (staging / "bin").iterdir():
        if script.suffix != ".jar":
            script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (staging / MARKER).write_text("\n".join(w.name for w in wheels) + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    staging.rename(dest)
    return dest


def write_messages_jar(jar: Path) -> Path:
    """The compatibility cases' protobuf message classes (protoc and javac of the protobuf release
    the distribution's flink-protobuf is built with), as one jar."""
    compiled = protobuf_oracle.compile_protos(MESSAGE_PROTOS, sorted(p.name for p in MESSAGE_PROTOS.glob("*.proto")),
                                              flink_lines.protobuf_java_release(locations.flink_version()))
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n")
        for path in sorted(compiled.classes.rglob("*.class")):
            out.write(path, path.relative_to(compiled.classes).as_posix())
    return jar


def extract_package(package: Path, root: Path) -> None:
    """Copy the distribution's files out of a wheel or a source distribution (`.tar.gz`)."""
    if package.name.endswith(".tar.gz"):
        with tarfile.open(package) as archive:
            for member in archive.getmembers():
                name = member.name.split("/", 1)[1] if "/" in member.name else ""
                if member.isfile():
                    _copy_member(name, SDIST_LAYOUT, archive.extractfile(member), root)
        return
    with zipfile.ZipFile(package) as archive:
        for member in archive.infolist():
            if not member.is_dir():
                with archive.open(member) as src:
                    _copy_member(member.filename, LAYOUT, src, root)


def _copy_member(name: str, layout: dict[str, str], src, root: Path) -> None:
    prefix = next((p for p in layout if name.startswith(p)), None)
    if prefix is None:
        return
    target = root / layout[prefix] / name[len(prefix):]
    if target.suffix in (".py", ".pyc", ".bat"):  # PyFlink's Python helpers are not part of the tarball
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as out:
        shutil.copyfileobj(src, out)


def ensure_distribution() -> Path:
    """Assemble the distribution unless a complete one is already cached."""
    home = locations.flink_home()
    if (home / MARKER).exists():
        return home
    wheels = download_wheels(locations.cache_dir() / "wheels", locations.flink_version())
    return assemble(wheels, locations.require(locations.flink_user_jars_dir(), "runtime jars"), home)


if __name__ == "__main__":
    print(ensure_distribution())
