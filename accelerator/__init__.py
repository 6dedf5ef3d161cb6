"""flink-accelerator: runs the stateless parts of Flink SQL jobs on Arrow and DataFusion.

The Python side holds the sidecar (formats, plans) and the tooling around it: the CLI, the
test harness for real Kafka and Flink (`accelerator.testing`), the compatibility suite runner
and the benchmarks.
"""

__version__ = "0.1.0"

#: The only Flink release the shim hooks into; any other version runs stock.
FLINK_VERSION = "2.2.1"
