"""`accelerator explain job.sql`: which operators of a job's plan run accelerated, and why the others do not.

Plans the script's INSERTs in one short-lived JVM (`org.flinkaccelerator.explain.ExplainMain`, the
stock distribution's `lib/` with the accelerator jar first on the class path) with the flag on,
without running anything and without a Kafka broker or Flink cluster. Prints Flink's plan, one
operator per line marked `[accelerated: ...]` or `[stock: <reason>]`, then the stock parts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from accelerator import __version__

MAIN_CLASS = "org.flinkaccelerator.explain.ExplainMain"
# Flink's logs go to stderr at WARN, so stdout holds only the plans.
LOG4J_CONFIG = """\
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = err
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = %d{HH:mm:ss} %-5p %c{1} - %m%n
"""
STOCK_SECTION = "Runs on stock Flink:"
WINDOW_AGGREGATES_SECTION = "Window aggregates (accelerator.window-aggregate.enabled):"
GROUP_AGGREGATES_SECTION = "Group aggregates (accelerator.group-aggregate.enabled):"
DEDUPLICATIONS_SECTION = "Deduplications (accelerator.deduplicate.enabled):"
TOP_N_SECTION = "Top-N (accelerator.top-n.enabled):"
JOINS_SECTION = "Joins (accelerator.join.enabled):"
OVER_AGGREGATES_SECTION = "OVER aggregates (accelerator.over-aggregate.enabled):"
GROUP_WINDOW_AGGREGATES_SECTION = "Group window aggregates (accelerator.group-window-aggregate.enabled):"
#: The sections of stateful operators, and how their stock lines are named in `stock_parts`.
STATEFUL_SECTIONS = {WINDOW_AGGREGATES_SECTION: "window aggregate", GROUP_AGGREGATES_SECTION: "group aggregate",
                     DEDUPLICATIONS_SECTION: "deduplication", TOP_N_SECTION: "Top-N", JOINS_SECTION: "join",
                     OVER_AGGREGATES_SECTION: "OVER aggregate",
                     GROUP_WINDOW_AGGREGATES_SECTION: "group window aggregate"}
STAYS_STOCK = ": stays stock: "
FILE_MARKER = "##### file "
EXIT_MARKER = "##### exit "


@dataclass(frozen=True)
class Explained:
    """ExplainMain's exit code and output."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def stock_parts(self) -> list[str]:
        """The lines under "Runs on stock Flink:", then each window or group aggregate that stays
        stock, as "window aggregate NAME: <reasons>" ("group aggregate NAME: ...") (the report keeps
        those apart from the stock parts, since they are stock whenever their option is off; a case
        that turns the option on wants them)."""
        parts: list[str] = []
        section = None
        for line in self.stdout.splitlines():
            if line.startswith("== ") or not line:  # a section ends at a blank line or the next INSERT
                section = None
            elif line == STOCK_SECTION or line in STATEFUL_SECTIONS:
                section = line
            elif section == STOCK_SECTION and line.startswith("  "):
                parts.append(line.strip())
            elif section in STATEFUL_SECTIONS and STAYS_STOCK in line \
                    and line.startswith("  ") and not line.startswith("   "):
                name, _, why = line.strip().partition(STAYS_STOCK)
                parts.append(f"{STATEFUL_SECTIONS[section]} {name}: {why}")
        return parts


def default_flink_home() -> Path:
    """$FLINK_HOME, else this checkout's cached stock distribution."""
    if os.environ.get("FLINK_HOME"):
        return Path(os.environ["FLINK_HOME"])
    from accelerator.testing import locations

    return locations.flink_home()


def default_jar(flink_home: Path) -> Path:
    """The accelerator jar in `lib/` of the distribution, else this package's jar for the
    distribution's Flink line, as `accelerator install-jar` picks it (a 1.20 distribution gets the
    1.20 jar, whatever release the checkout's local clusters run)."""
    in_lib = sorted((flink_home / "lib").glob(f"flink-accelerator-{__version__}*.jar"))
    if in_lib:
        return in_lib[0]
    from accelerator import install

    return install.jar_for(flink_home, install.flink_version(flink_home), install.packaged_jars())


def java_executable() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise FileNotFoundError("no `java` on PATH and no JAVA_HOME: explain needs Java 17 to run Flink's planner")
    return found


def _run_java(arguments: list[str], flink_home: Path | None, jar: Path | None,
              timeout_s: float) -> subprocess.CompletedProcess:
    # Absolute: Java runs in a temporary folder, where a relative --flink-home or --jar means nothing.
    home = Path(flink_home or default_flink_home()).resolve()
    jar = Path(jar or default_jar(home)).resolve()
    for path, what in ((home / "lib", "Flink's lib/ folder"), (jar, "the flink-accelerator jar")):
        if not path.exists():
            raise FileNotFoundError(f"{what} not found at {path}")
    with tempfile.TemporaryDirectory(prefix="accelerator-explain-") as tmp:
        log_config = Path(tmp) / "log4j2.properties"
        log_config.write_text(LOG4J_CONFIG)
        command = [java_executable(), f"-Dlog4j2.configurationFile={log_config}", f"-Djava.io.tmpdir={tmp}",
                   "-cp", f"{jar}{os.pathsep}{home / 'lib'}/*", MAIN_CLASS]
        if (home / "conf" / "config.yaml").exists():
            command += ["--conf", str(home / "conf")]
        return subprocess.run(command + arguments, capture_output=True, text=True, timeout=timeout_s, cwd=tmp)


def explain(sql_file: Path, flink_home: Path | None = None, jar: Path | None = None,
            timeout_s: float = 300.0) -> Explained:
    """Run ExplainMain on `sql_file`; never raises for a bad script (see `returncode`, `stderr`)."""
    result = _run_java([str(Path(sql_file).resolve())], flink_home, jar, timeout_s)
    return Explained(result.returncode, result.stdout, _without_log_lines(result.stderr))


def explain_many(sql_files: list[Path], flink_home: Path | None = None, jar: Path | None = None,
                 timeout_s: float = 1800.0) -> dict[Path, Explained]:
    """Explain several scripts in one JVM (planning warms up once); each result's `stderr` is its errors."""
    files = [Path(f).resolve() for f in sql_files]
    if len(files) == 1:  # ExplainMain marks each script's output only when it has several
        return {files[0]: explain(files[0], flink_home, jar, timeout_s)}
    result = _run_java([str(f) for f in files], flink_home, jar, timeout_s)
    out: dict[Path, Explained] = {}
    current: Path | None = None
    lines: list[str] = []
    for line in result.stdout.splitlines(keepends=True):
        if line.startswith(FILE_MARKER):
            current, lines = Path(line[len(FILE_MARKER):].strip()), []
        elif line.startswith(EXIT_MARKER) and current is not None:
            code, text = int(line[len(EXIT_MARKER):]), "".join(lines)
            out[current] = Explained(code, text if code == 0 else "", "" if code == 0 else text)
            current = None
        elif current is not None:
            lines.append(line)
    for f in files:  # the JVM died before reaching it
        out.setdefault(f, Explained(result.returncode or 1, "", _without_log_lines(result.stderr)
                                    or f"explain ended before {f}"))
    return out


_LOG_LINE = re.compile(r"^\d\d:\d\d:\d\d (WARN|INFO|DEBUG) ")


def _without_log_lines(stderr: str) -> str:
    """Flink's WARN lines (e.g. the Kafka source builder's) are noise next to the error they precede."""
    return "\n".join(line for line in stderr.splitlines() if not _LOG_LINE.match(line))


def main(sql_file: str, flink_home: str | None = None, jar: str | None = None) -> int:
    import sys

    from accelerator.install import InstallError

    try:
        result = explain(Path(sql_file), Path(flink_home) if flink_home else None, Path(jar) if jar else None)
    except (FileNotFoundError, InstallError) as missing:
        print(f"accelerator explain: {missing}", file=sys.stderr)
        return 2
    sys.stdout.write(result.stdout)
    if result.stderr.strip():
        sys.stderr.write(result.stderr.rstrip("\n") + "\n")
    return result.returncode
