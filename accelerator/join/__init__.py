"""The join stage (kind `join`): the regular INNER equi-join of two insert-only inputs, both
inputs' rows in the sidecar and checkpointed into Flink's raw keyed state
(docs/design/stateful-joins.md). `spec` reads the descriptor; `state` holds each key's distinct
rows per side with their counts; `matches` computes, per batch, the joined rows stock Flink's
StreamingJoinOperator emits, in its RocksDB state order."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
