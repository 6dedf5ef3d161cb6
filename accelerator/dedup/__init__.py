"""The deduplicate stage (kind `deduplicate`): `ROW_NUMBER() OVER (PARTITION BY k ORDER BY <time>) = 1`
over an insert-only input, keeping each key's first or last row by processing or event time, its
kept rows in the sidecar and checkpointed into Flink's raw keyed state
(docs/design/stateful-deduplicate.md). `spec` reads the descriptor; `state` holds the kept row per
key; `choice` computes, per batch, which rows stock Flink's deduplicate functions emit."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
