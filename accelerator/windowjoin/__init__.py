"""The window join stage (kind `window_join`): an event-time window join (`StreamExecWindowJoin`)
of two window TVF inputs, each input's rows held per key and window end in the sidecar until the
watermark passes the window, and checkpointed into Flink's raw keyed state. `spec` reads the
descriptor; `emission` orders one firing's output as stock's WindowJoinOperator emits it; `stage`
holds the rows and answers the calls."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
