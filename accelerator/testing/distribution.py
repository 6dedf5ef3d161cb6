"""Assembles the stock Flink binary distribution from the PyPI wheels.

The official tarball is not on a registry we can reach, but its parts are: `apache-flink`
carries bin/ and conf/, `apache-flink-libraries` carries lib/, opt/, plugins/ and
bin/bash-java-utils.jar. We download both with `pip download --no-deps` (never install them:
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
import zipfile
from pathlib import Path

from accelerator.testing import locations, protobuf_oracle

WHEELS = ("apache-flink", "apache-flink-libraries")
#: Wheel member prefix -> distribution folder. Later wheels may add to the same folder.
LAYOUT = {"pyflink/bin/": "bin", "pyflink/conf/": "conf", "pyflink/lib/": "lib",
          "pyflink/opt/": "opt", "pyflink/plugins/": "plugins", "pyflink/licenses/": "licenses"}
#: Folders of the jars java-shim/test-runtime/pom.xml fetched that a user would add to the distribution.
ADDED_JARS = ("lib", "opt")
MARKER = ".assembled"
#: The .proto files of the messages the protobuf compatibility cases and golden descriptors name.
MESSAGE_PROTOS = locations.REPO_ROOT / "flink-compat-tests" / "protos"
MESSAGES_JAR = "flink-accelerator-compat-messages.jar"


def download_wheels(dest: Path, version: str) -> list[Path]:
    """Fetch both wheels of Flink `version` once; a second call finds them and downloads nothing."""
    dest.mkdir(parents=True, exist_ok=True)
    specs = [f"{name}=={version}" for name in WHEELS]
    wheels = [_find_wheel(dest, spec) for spec in specs]
    if all(wheels):
        return wheels
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                    "--dest", str(dest), *specs], check=True)
    return [_find_wheel(dest, spec, required=True) for spec in specs]


def _find_wheel(folder: Path, spec: str, required: bool = False) -> Path | None:
    name, version = spec.split("==")
    found = sorted(folder.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found and required:
        raise FileNotFoundError(f"pip download left no wheel for {spec} in {folder}")
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
        _extract(wheel, staging)
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
    flink-protobuf is built with), as one jar."""
    compiled = protobuf_oracle.compile_protos(MESSAGE_PROTOS, sorted(p.name for p in MESSAGE_PROTOS.glob("*.proto")))
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n")
        for path in sorted(compiled.classes.rglob("*.class")):
            out.write(path, path.relative_to(compiled.classes).as_posix())
    return jar


def _extract(wheel: Path, root: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.infolist():
            prefix = next((p for p in LAYOUT if member.filename.startswith(p)), None)
            if prefix is None or member.is_dir():
                continue
            target = root / LAYOUT[prefix] / member.filename[len(prefix):]
            if target.suffix in (".py", ".pyc", ".bat"):  # PyFlink's Python helpers are not part of the tarball
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as src, open(target, "wb") as out:
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
