"""Flink's own formats timed in their own JVM: `benchmarks/formats/java/FormatThroughput.java`,
compiled on first use against the stock distribution's `lib/` into `.cache/bench-formats/`."""

from __future__ import annotations

import shutil
from pathlib import Path

from accelerator.bench.formats import worker
from accelerator.formats.types import DataType
from accelerator.testing import locations

SOURCE = locations.REPO_ROOT / "benchmarks" / "formats" / "java" / "FormatThroughput.java"
MAIN_CLASS = "FormatThroughput"
#: A TaskManager's collector (Flink's default JVM options) sized for the one CPU it may use.
JVM_OPTIONS = ["-XX:+UseG1GC", "-XX:ActiveProcessorCount=1", "-Xms2g", "-Xmx2g"]


def _java_tool(name: str) -> str:
    from accelerator.explain import java_executable

    tool = Path(java_executable()).resolve().with_name(name)
    found = str(tool) if tool.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"no `{name}` next to {java_executable()} or on PATH: the format benchmark"
                                f" compiles its Java side with a JDK 17")
    return found


def _classpath_lib() -> str:
    lib = locations.require(locations.flink_home() / "lib", "Flink distribution")
    return str(lib / "*")


def compiled(work_dir: Path) -> Path:
    """The classes directory, compiled again whenever the source is newer."""
    classes = work_dir / "classes"
    built = classes / f"{MAIN_CLASS}.class"
    if built.exists() and built.stat().st_mtime >= SOURCE.stat().st_mtime:
        return classes
    classes.mkdir(parents=True, exist_ok=True)
    worker.run_on(worker.benchmark_cpu(), [_java_tool("javac"), "--release", "17", "-nowarn", "-cp",
                                             _classpath_lib(), "-d", str(classes), str(SOURCE)])
    return classes


def start(fmt: str, row_type: DataType, seed_file: Path, canonical_file: Path, batch: int, work_dir: Path,
          cpu: int) -> worker.Worker:
    """Flink's side, ready once it has re-encoded the seed messages into `canonical_file` (its
    `ready` line: messages, bytes, JVM); each round it times is in nanoseconds."""
    classes = compiled(work_dir)
    command = [_java_tool("java"), *JVM_OPTIONS, "-cp", f"{classes}:{_classpath_lib()}", MAIN_CLASS,
               fmt, row_type.serializable(), str(seed_file), str(canonical_file), str(batch)]
    return worker.Worker("Flink", command, cpu)
