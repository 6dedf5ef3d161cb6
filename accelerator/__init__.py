"""flink-accelerator: runs the stateless parts of Flink SQL jobs on Arrow and DataFusion.

The Python side holds the sidecar (formats, plans) and the tooling around it: the CLI, the
test harness for real Kafka and Flink (`accelerator.testing`), the compatibility suite runner
and the benchmarks.
"""

__version__ = "0.1.0"

#: The Flink release the jar is compiled against and the local clusters run unless told otherwise
#: (`make compat FLINK_VERSION=...`). The jar's flink-accelerator.properties lists every release
#: it hooks into (flink.supported.versions in java-shim/pom.xml); any other runs stock.
FLINK_VERSION = "2.2.1"
