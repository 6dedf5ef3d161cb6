"""The group aggregate stage (kind `group_agg`): a non-windowed GROUP BY aggregate over an
insert-only or updating input whose accumulators live in the sidecar and are checkpointed into Flink's raw
keyed state (docs/design/stateful-group-aggregate.md). `stage` registers the kind; `state`
holds one accumulator row per key; `emission` computes each input row's changelog output."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
