"""Group windows of rows before 1970 (negative epoch milliseconds), as stock Flink 2.2's
`AggregateWindowOperator` runs them: windows start at `TimeWindow.getWindowStartWithOffset` (the
floor, for negative times too), a window fires and is cleaned when the watermark reaches its end - 1,
and `WindowOperator.registerCleanupTimer` adds a second timer at max(0, end - 1) = 0 to a window
ending at or before the epoch, deleted when a session merges away; it fires nothing. The expected
answers are worked out from those rules, not from this sidecar."""

import pyarrow as pa

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupwindow.stage import GroupWindowStage

from test_batch_assignment import LONG_MIN, TimerSet, _call, _update, descriptor

REGISTER, DELETE = 1, -1


def _stage(window: dict) -> tuple[GroupWindowStage, TimerSet]:
    return GroupWindowStage(descriptor(window)), TimerSet()


def _rows(*times: int) -> list:
    return [(1, t, 1.0, None) for t in times]


def _fired(stage: GroupWindowStage, watermark: int) -> list:
    answer = stage.process(_call("fire", watermark=watermark)).to_pydict()
    return list(zip(answer["$start"], answer["$end"], answer["c"]))


def _changes(*changes) -> tuple[list, dict]:
    key = b"key-1"
    return [(op, (key, start, end, time)) for op, start, end, time in changes], {b"accelerator.dropped": b"0"}


def test_tumble_windows_before_the_epoch_start_at_the_floor_and_get_a_second_timer_at_zero():
    stage, timers = _stage({"type": "tumble", "size_ms": 10})
    answer = timers.apply(stage.process(_update(stage, _rows(-25, -22, -15), 0, LONG_MIN)))
    assert answer == _changes((REGISTER, -30, -20, -21), (REGISTER, -30, -20, 0),
                              (REGISTER, -20, -10, -11), (REGISTER, -20, -10, 0))
    assert _fired(stage, -21) == [(-30, -20, 2)]
    timers.advance(-21)
    # [-30, -20) fired and was cleaned at its end - 1: a row for it now is late, and starts nothing.
    changes, dropped = timers.apply(stage.process(_update(stage, _rows(-23, -1), 0, -21)))
    assert (changes, dropped) == (_changes((REGISTER, -10, 0, -1), (REGISTER, -10, 0, 0))[0],
                                  {b"accelerator.dropped": b"1"})
    assert _fired(stage, 100) == [(-20, -10, 1), (-10, 0, 1)]
    timers.advance(100)
    assert timers.timers == set() and stage.state.entries == 0


def test_hop_windows_around_the_epoch_add_the_zero_timer_only_to_those_ending_before_it():
    stage, timers = _stage({"type": "hop", "size_ms": 20, "slide_ms": 10})
    # -5 is in [-10, 10) (its last window, registered first) and [-20, 0).
    assert timers.apply(stage.process(_update(stage, _rows(-5), 0, LONG_MIN))) == _changes(
        (REGISTER, -10, 10, 9), (REGISTER, -20, 0, -1), (REGISTER, -20, 0, 0))
    assert _fired(stage, 9) == [(-20, 0, 1), (-10, 10, 1)]
    assert stage.state.entries == 0


def test_a_session_before_the_epoch_merged_away_loses_both_its_timers():
    stage, timers = _stage({"type": "session", "gap_ms": 10})
    assert timers.apply(stage.process(_update(stage, _rows(-30), 0, LONG_MIN))) == _changes(
        (REGISTER, -30, -20, -21), (REGISTER, -30, -20, 0))
    # -25 reaches to -15: the sessions merge into [-30, -15) (its timer, then the old one's two
    # deleted, as MergingFunctionImpl.merge does), and the row registers its cleanup timer.
    assert timers.apply(stage.process(_update(stage, _rows(-25), 0, LONG_MIN))) == _changes(
        (REGISTER, -30, -15, -16), (DELETE, -30, -20, -21), (DELETE, -30, -20, 0), (REGISTER, -30, -15, 0))
    # A session from before the epoch to after it has one timer, at its end - 1.
    assert timers.apply(stage.process(_update(stage, _rows(-8), 0, LONG_MIN))) == _changes(
        (REGISTER, -8, 2, 1))
    assert _fired(stage, 0) == [(-30, -15, 2)]
    assert _fired(stage, 1) == [(-8, 2, 1)]
    timers.advance(1)
    assert timers.timers == set() and stage.state.entries == 0


def test_batches_of_rows_before_the_epoch_answer_as_one_row_at_a_time():
    """The batch paths (numpy for TUMBLE and HOP, runs for SESSION) hand such rows on as the row-by-row
    assignment does: the same timer changes for the same rows in one batch or one by one."""
    for window in ({"type": "tumble", "size_ms": 7}, {"type": "hop", "size_ms": 9, "slide_ms": 4},
                   {"type": "session", "gap_ms": 5}):
        times = [-40, -33, -31, -12, -2, 3, -6, 11, -1]
        whole, whole_timers = _stage(window)
        one, one_timers = _stage(window)
        changes = whole_timers.apply(whole.process(_update(whole, _rows(*times), 0, LONG_MIN)))[0]
        singly = [c for t in times for c in one_timers.apply(one.process(_update(one, _rows(t), 0, LONG_MIN)))[0]]
        assert changes == singly, window
        assert any(timer[3] == 0 for _, timer in changes), window
        assert pa.RecordBatch.to_pydict(whole.process(_call("snapshot"))) == one.process(_call("snapshot")).to_pydict()
