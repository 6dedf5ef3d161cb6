"""The sidecar: a Python process next to a Flink operator subtask that runs accelerated stages.

The JVM starts it (`python -m accelerator.sidecar`), drives it over py4j on loopback (control
calls only) and exchanges Arrow batches with it through shared-memory regions (`shm`). What a
stage does with a batch is pluggable (`stages`).
"""

#: Version of the transport (region layout and control calls). The JVM and the sidecar refuse to
#: work with a peer that speaks another one.
PROTOCOL_VERSION = 2
