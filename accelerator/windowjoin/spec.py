"""A `window_join` descriptor, read and checked once when the stage opens: the sections every join
descriptor has (`accelerator.join.sections`), after a transport that names each row's window."""

from __future__ import annotations

from accelerator.join import sections
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor

KEY = keyed_state.KEY
KEY_GROUP = keyed_state.KEY_GROUP
SIDE = sections.SIDE
#: The window end of the row (Flink's window_end millis): with the key, the window its row joins in.
WINDOW_END = "$window_end"
#: The watermark at which stock's timer for the row's window fires (TimeWindowUtil.toEpochMillsForTimer
#: of window end - 1 in the operator's shift time zone, computed by the JVM operator).
TRIGGER = "$trigger"
LEFT, RIGHT = sections.LEFT, sections.RIGHT
SEMI, ANTI = sections.SEMI, sections.ANTI


def parse(descriptor: dict) -> sections.JoinSections:
    return parse_descriptor(descriptor, "window_join", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> sections.JoinSections:
    # The operator sends every row, a NULL key's too: the stage applies the keys' NULL filters
    # as stock's WindowJoinOperator does, per (key, window), for every join type.
    return sections.read(descriptor, name, refuse, {SIDE: "TINYINT", WINDOW_END: "BIGINT", TRIGGER: "BIGINT"},
                         "window joins", "the condition reads", lambda join_type: True)
