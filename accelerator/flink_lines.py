"""The Flink lines this release has a jar for, and which jar and build serve a Flink release.

One jar cannot serve both lines (their planner and runtime internals differ), so java-shim builds
two: the 2.x jar `flink-accelerator-<version>.jar` (the default build) and the 1.20 jar
`flink-accelerator-<version>-flink-1.20.jar` (`mvn -Pflink-1.20`, under `target/flink-1.20/`).
Which releases each jar hooks into is stated by the jar itself (`flink-accelerator.properties`);
this module only tells the lines apart.
"""

from __future__ import annotations

from accelerator import __version__

#: Releases of the 1.20 LTS line start with this; every other release is the 2.x jar's business.
LINE_120_PREFIX = "1.20."
JAR_2 = f"flink-accelerator-{__version__}.jar"
JAR_120 = f"flink-accelerator-{__version__}-flink-1.20.jar"
#: Each jar's folder under java-shim/ (the 1.20 build keeps its classes apart from the default build's).
BUILD_FOLDERS = {JAR_2: "target", JAR_120: "target/flink-1.20"}


def is_120(flink_version: str) -> bool:
    return flink_version.startswith(LINE_120_PREFIX)


def jar_name(flink_version: str) -> str:
    """The jar of this release for Flink `flink_version`'s line."""
    return JAR_120 if is_120(flink_version) else JAR_2


def protobuf_java_release(flink_version: str) -> str:
    """The protobuf-java release that line's flink-protobuf is built with (1.20.0: 3.21.7; 2.2.0 and 2.3.0: 4.32.1),
    so message classes a user compiles for it (protoc of the same release) run on it."""
    return "3.21.7" if is_120(flink_version) else "4.32.1"


def json_plain_decimal_keeps_scale(flink_version: str) -> bool:
    """Whether that release's json format, under 'json.encode.decimal-as-plain-number', writes a DECIMAL with
    its column's scale (2.x: `1.10` in a DECIMAL(10, 2)), as the sidecar does; 1.20's drops the trailing zeros
    (`1.1`). The planner's twin is `FlinkVersionSupport.jsonPlainDecimalKeepsScale`."""
    return not is_120(flink_version)
