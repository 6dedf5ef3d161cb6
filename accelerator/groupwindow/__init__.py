"""The sidecar half of an accelerated legacy group window aggregate (`GROUP BY TUMBLE(...)`,
`HOP(...)`, `SESSION(...)` over event time): the accumulators of each key's windows, panes and
sessions, while the JVM operator keeps Flink's timers (docs/architecture.md, "Group window
aggregates")."""

# As in accelerator.windowagg: the stage registry first, so each module can be imported alone.
import accelerator.sidecar.stages  # noqa: E402,F401
