"""The window_agg stage's calls through the control object the JVM calls: window assignment, late
drop, flush order, firing and window properties, and the refusals that keep the JVM honest.

Expected windows are worked out by hand from Flink's formulas (design §1): end =
floor((t + zone offset - offset) / size) * size + offset + size; a row is late iff
end - 1 - zone offset <= progress; a window fires at watermark w iff end - 1 - zone offset <= w."""

from __future__ import annotations

import pytest
from window_agg_client import LONG_MIN, CallFailed, descriptor

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
SUM_V = {"function": "sum", "arg": "v", "acc": "BIGINT"}
V = {"v": "BIGINT"}
HOUR = 3_600_000


def row(key: str, t: int, v=1, key_group: int = 0) -> dict:
    return {"$key": key, "$key_group": key_group, "$time": t, "v": v}


def test_rows_go_to_floor_windows_and_a_row_is_late_exactly_when_its_window_fired(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR, SUM_V], arguments=V))
    # progress -2: window [-10000, 0) fires at -1 > -2, so all four rows are on time.
    assert stage.update([row("a", -1, 1), row("a", -10_000, 2), row("a", 0, 4), row("a", 9_999, 8)], progress=-2) == 0
    # progress -1: [-10000, 0) has fired (t=-1 and t=-10001 are late), [0, 10000) has not.
    assert stage.update([row("a", -1, 100), row("a", 0, 16), row("a", -10_001, 100)], progress=-1) == 2
    # progress 9999: [0, 10000) has fired; [10000, 20000) has not.
    assert stage.update([row("a", 9_999, 100), row("a", 10_000, 64)], progress=9_999) == 1
    assert stage.flush() == [(b"a", 0), (b"a", 10_000), (b"a", 20_000)]
    fired = sorted(stage.fire(20_000), key=lambda r: r["window_end"])
    assert [(r["window_start"], r["window_end"], r["count10"], r["sum1"]) for r in fired] == [
        (-10_000, 0, 2, 3), (0, 10_000, 3, 28), (10_000, 20_000, 1, 64)]


def test_an_offset_window_and_a_zone_offset_shift_ends_and_triggers(sidecar):
    """TIMESTAMP_LTZ rowtime in a +08:00 zone, hourly windows: windows are in the shifted wall
    clock, triggers and window_time back in epoch milliseconds."""
    zone = 8 * HOUR
    stage = sidecar.open(descriptor([COUNT_STAR], size_ms=HOUR, zone_offset_ms=zone, ltz=True,
                                    properties=("window_start", "window_end", "window_time")))
    # Epoch t = 1h - 1ms is wall clock 9h - 1ms: window [8h, 9h), trigger 9h - 1ms - 8h = 1h - 1ms.
    assert stage.update([row("a", HOUR - 1), row("b", HOUR)], progress=HOUR - 2) == 0
    assert stage.update([row("c", HOUR - 1)], progress=HOUR - 1) == 1
    stage.flush()
    assert stage.fire(HOUR - 2) == []
    assert stage.fire(HOUR - 1) == [{"$key": "a", "$window_end": 9 * HOUR, "count10": 1, "window_start": 8 * HOUR,
                                     "window_end": 9 * HOUR, "window_time": HOUR - 1}]
    # Daily windows offset by the zone's 8 hours: they start at 08:00 wall clock, midnight UTC.
    day = 24 * HOUR
    daily = sidecar.open(descriptor([COUNT_STAR], size_ms=day, offset_ms=zone, zone_offset_ms=zone, ltz=True,
                                    properties=("window_time", "window_start")))
    assert daily.update([row("a", -1), row("a", 0)], progress=-2) == 0
    daily.flush()
    assert daily.fire(-2) == []
    assert [(r["window_start"], r["window_time"]) for r in daily.fire(day - 1)] == [(-16 * HOUR, -1), (8 * HOUR, day - 1)]


def test_flush_answers_pairs_with_rows_since_the_last_flush_in_first_occurrence_order(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR, SUM_V], arguments=V))
    stage.update([row("b", 5_000), row("a", 15_000), row("b", 7_000), row("c", 5_000)])
    stage.update([row("a", 3_000), row("b", 16_000)])
    assert stage.flush() == [(b"b", 10000), (b"a", 20000), (b"c", 10000), (b"a", 10000), (b"b", 20000)]
    assert stage.flush() == []  # nothing new
    # (a, 10000) is not new but had rows: stock's buffer holds it again and registers its timer
    # again (Flink's timer service keeps one).
    stage.update([row("a", 4_000), row("d", 25_000), row("c", 11_000), row("d", 1_000)])
    assert stage.flush() == [(b"a", 10000), (b"d", 30000), (b"c", 20000), (b"d", 10000)]
    # Fired windows leave the state; nothing of them comes back at the next flush.
    stage.fire(9999)
    stage.update([row("e", 10_001)], progress=9_999)
    assert stage.flush() == [(b"e", 20000)]


def test_fire_answers_exactly_the_windows_whose_trigger_is_reached_once(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR, SUM_V, {"function": "max", "arg": "v", "acc": "BIGINT"}],
                                    arguments=V, properties=("window_end", "window_start", "window_time")))
    stage.update([row("a", 1, 5), row("b", 10_000, 7), row("a", 9_999, -2), row("c", 29_999, 1), row("b", 19_999, 3)])
    stage.flush()
    assert stage.fire(9_998) == []
    assert stage.fire(9_999) == [{"$key": "a", "$window_end": 10_000, "count10": 2, "sum1": 3, "max2": 5,
                                  "window_end": 10_000, "window_start": 0, "window_time": 9_999}]
    assert stage.fire(9_999) == []  # removed from state
    assert stage.fire(29_998) == [{"$key": "b", "$window_end": 20_000, "count10": 2, "sum1": 10, "max2": 7,
                                   "window_end": 20_000, "window_start": 10_000, "window_time": 19_999}]
    assert [r["$key"] for r in stage.fire(2 ** 62)] == ["c"]
    names = stage.fire_batch(2 ** 62).schema.names
    assert names == ["$key", "$window_end", "count10", "sum1", "max2", "window_end", "window_start", "window_time"]


def test_a_window_whose_count_star_is_zero_is_removed_without_being_emitted(sidecar):
    """Stock's WindowIsEmptySupplier: the (hidden) COUNT(*) accumulator at 0 means an empty window.
    Only merged partials can make one; the global phase gets such a partial here."""
    stage = sidecar.open(descriptor([{**COUNT_STAR, "arg": "c", "emit": False}, {"function": "sum", "arg": "s", "acc": "BIGINT"}],
                                    phase="global", arguments={"c": "BIGINT NOT NULL", "s": "BIGINT"}))
    stage.update([{"$key": "empty", "$key_group": 0, "$time": 10_000, "c": 0, "s": None},
                  {"$key": "full", "$key_group": 0, "$time": 10_000, "c": 2, "s": 5}])
    stage.flush()
    answer = stage.fire_batch(9_999)
    assert answer.num_rows == 1 and answer.to_pylist()[0]["$key"] == b"full" and answer.to_pylist()[0]["sum1"] == 5
    # The JVM lets exactly that many of the watermark's timers find no row.
    assert answer.schema.metadata[b"accelerator.empty"] == b"1"
    assert stage.snapshot().num_rows == 0


def test_update_answers_its_dropped_count_and_state_gauges_in_metadata(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR]))
    batch = stage.rows([row("a", 5), row("a", 15_000), row("b", 15_000)])
    answer = sidecar.call(stage.stage_id, batch.replace_schema_metadata(
        {b"accelerator.call": b"update", b"accelerator.progress": b"9999", b"accelerator.state_budget": b"1000000"}))
    # No timer on arrival (a TUMBLE row's slice is its window: late once fired).
    assert answer.num_rows == 0 and answer.schema.names == ["$key", "$window_end"]
    assert answer.schema.metadata[b"accelerator.dropped"] == b"1"
    # What stock's buffer holds after the batch: two rows, the smallest slice ending at 20 s.
    assert answer.schema.metadata[b"accelerator.accepted"] == b"2"
    assert answer.schema.metadata[b"accelerator.smallest_end"] == b"20000"
    assert answer.schema.metadata[b"accelerator.state_entries"] == b"2"
    assert int(answer.schema.metadata[b"accelerator.state_bytes"]) > 0


def test_windows_fire_only_once_a_flush_registered_their_timers(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR]))
    stage.update([row("a", 5)])
    # Stock's rows wait in its buffer and no timer is registered before its flush.
    assert stage.fire(9_999) == []
    with pytest.raises(CallFailed, match="before a flush handed it over"):
        stage.snapshot()
    # Stock registers no timer for a window already fired at the timer service's watermark: the
    # window is never emitted and its state stays.
    assert stage.flush(timer_watermark=9_999) == []
    assert stage.fire(20_000) == []
    state = stage.snapshot()
    assert state.column("$slice").to_pylist() == [True] and state.column("$timer").to_pylist() == [False]


def test_a_request_without_a_known_call_or_its_metadata_fails_with_a_reply(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR]))
    batch = stage.rows([row("a", 5)])
    for metadata, reason in [({}, "names no call"), ({b"accelerator.call": b"merge"}, "a window_agg stage answers ['update', 'flush', 'fire', 'snapshot', 'restore', 'timers'], not 'merge'"),
                             ({b"accelerator.call": b"update"}, "needs schema metadata 'accelerator.progress'"),
                             ({b"accelerator.call": b"update", b"accelerator.progress": b"soon"}, "not a decimal long")]:
        with pytest.raises(CallFailed) as failed:
            sidecar.call(stage.stage_id, batch.replace_schema_metadata(metadata))
        assert reason in failed.value.reply["reason"]
        assert failed.value.reply["call"] == "process" and failed.value.reply["stage_name"] == "test-window-agg"
    with pytest.raises(CallFailed, match="update columns"):
        stage.update(batch.drop_columns(["$key_group"]))
    assert stage.update(batch, progress=LONG_MIN) == 0  # the stage still works


@pytest.mark.parametrize("change, reason", [
    ({"window": {"type": "tumble", "size_ms": 10_000, "offset_ms": 0, "zone_offset_ms": 3_600_000 + 1}},
     "not epoch-aligned"),
    ({"window": {"type": "session", "size_ms": 10_000}}, "window type 'session'"),
    ({"window": {"type": "hop", "size_ms": 10_000, "slide_ms": 3_000}}, "no multiple of the slide"),
    ({"window": {"type": "hop", "size_ms": 10_000, "slide_ms": 5_000}}, "HOP window aggregate without COUNT"),
    ({"phase": "local"}, "phase 'local'"),
    ({"aggregates": [{"function": "sum", "arg": "v", "acc": "BIGINT"}]}, "accumulates as BIGINT, but Flink's"),
    ({"aggregates": [{"function": "first_value", "arg": "v", "acc": "INT"}]}, "aggregate function 'first_value'"),
    # AvgAggFunction.IntAvgAggFunction sums an INT argument as BIGINT.
    ({"aggregates": [{"function": "avg", "arg": "v", "acc": "INT"}]}, "accumulates as INT, but Flink's"),
])
def test_descriptors_this_sidecar_would_not_compute_as_flink_are_refused_at_open(sidecar, change, reason):
    base = descriptor([{"function": "sum", "arg": "v", "acc": "INT"}], arguments={"v": "INT"})
    with pytest.raises(CallFailed, match=reason):
        sidecar.open({**base, **change})
