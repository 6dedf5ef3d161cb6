"""The sidecar half of an accelerated event-time OVER aggregate (ROWS or RANGE BETWEEN UNBOUNDED
PRECEDING AND CURRENT ROW): rows held per key until the watermark passes them, then emitted with
the running aggregates (docs/design/stateful-over-aggregate.md)."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
