"""A processing-time group window (`window.time` "processing" in the descriptor): each row's `$time`
is the processing time at which it arrived, and stock's `WindowOperator` drops no row as late
(`isWindowLate` and `isPaneLate` hold only for event time), whatever the watermark; a
processing-time SESSION is refused at open. The expected answers follow those rules, not this
sidecar's output."""

import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupwindow.stage import GroupWindowStage
from accelerator.sidecar.stages import DescriptorError

from test_batch_assignment import _call, _update, descriptor

REGISTER = 1
KEY = b"key-1"


def _fired(stage: GroupWindowStage, time: int) -> list:
    answer = stage.process(_call("fire", watermark=time)).to_pydict()
    return list(zip(answer["$start"], answer["$end"], answer["c"]))


@pytest.mark.parametrize("time", ["processing", "event"])
def test_rows_behind_the_watermark_are_late_only_over_event_time(time):
    window = {"type": "tumble", "size_ms": 10}
    if time == "processing":
        window["time"] = "processing"
    stage = GroupWindowStage(descriptor(window))
    # Rows at 3 and 14 with the watermark at 50: both windows are behind it.
    answer = stage.process(_update(stage, [(1, 3, 1.0, None), (1, 14, 1.0, None)], 0, 50))
    changes = answer.to_pydict()
    if time == "processing":
        assert list(zip(changes["$op"], changes["$start"], changes["$end"], changes["$timer_time"])) == [
            (REGISTER, 0, 10, 9), (REGISTER, 10, 20, 19)]
        assert answer.schema.metadata[b"accelerator.dropped"] == b"0"
        assert _fired(stage, 9) == [(0, 10, 1)]
        assert _fired(stage, 19) == [(10, 20, 1)]
    else:
        assert changes["$op"] == []
        assert answer.schema.metadata[b"accelerator.dropped"] == b"2"
    assert stage.state.entries == 0


def test_a_processing_time_hop_registers_every_window_of_a_row_last_one_first():
    stage = GroupWindowStage(descriptor({"type": "hop", "size_ms": 20, "slide_ms": 10, "time": "processing"}))
    changes = stage.process(_update(stage, [(1, 25, 1.0, None)], 0, 1_000)).to_pydict()
    assert list(zip(changes["$start"], changes["$end"], changes["$timer_time"])) == [(20, 40, 39), (10, 30, 29)]
    assert _fired(stage, 29) == [(10, 30, 1)]
    assert _fired(stage, 39) == [(20, 40, 1)]


def test_a_processing_time_session_is_refused():
    with pytest.raises(DescriptorError, match="processing-time SESSION"):
        GroupWindowStage(descriptor({"type": "session", "gap_ms": 10, "time": "processing"}))
