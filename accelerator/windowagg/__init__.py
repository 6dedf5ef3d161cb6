"""The window aggregate stage (kind `window_agg`): an event-time TUMBLE or HOP window aggregate whose
state lives in the sidecar and is checkpointed into Flink's raw keyed state
(docs/design/stateful-window-aggregate.md). `stage` registers the kind; `state` holds the open
windows; `accumulators` folds values with Java's arithmetic."""

# The stage registry imports this package's `stage` module to register the kind. Importing the
# registry first, before any module of this package, lets each of them be imported on its own.
import accelerator.sidecar.stages  # noqa: E402,F401
