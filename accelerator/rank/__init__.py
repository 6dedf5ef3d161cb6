"""The top_n stage (kind `top_n`): `ROW_NUMBER() OVER (PARTITION BY k ORDER BY s) <= N` over an
insert-only input, with or without the row number, each key's top rows in the sidecar and
checkpointed into Flink's raw keyed state (docs/design/stateful-top-n.md). `spec` reads the
descriptor; `order` ranks sort keys as stock's comparator does; `state` holds each key's top
rows; `topn` computes, per batch, what stock Flink's AppendOnlyTopNFunction emits."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
