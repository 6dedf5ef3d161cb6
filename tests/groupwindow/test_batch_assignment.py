"""The group_window stage's batch assignment (numpy for TUMBLE and HOP, the session fast path) and
batch firing (HOP windows' panes found and merged for all fired windows at once) against the
row-at-a-time assignment and window-at-a-time firing they replaced (`per_row_assignment`, verified
against stock's `WindowOperator`, and `per_window_firing`), on random batches: several keys,
out-of-order times, rows late for the watermark, watermarks firing windows between batches, times
after the epoch and times around it (windows ending before it have stock's second timer at 0), the
batch stage restored from its snapshot now and then. Every `update` must change Flink's timers the
same way in the same order and answer the same late-row count, every `fire` the same windows in the
same order with the same values (a DOUBLE SUM of values whose sum depends on the fold order among
them), and the final snapshot the same state."""

from functools import partial

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.groupwindow.stage import GroupWindowStage

import per_row_assignment
import per_window_firing

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BUDGET = str(1 << 40).encode()
LONG_MIN = -(1 << 63)
#: Where the rows' times start: long after the epoch, and just before it (windows end before it).
BASES = [1_000_000, -150]
#: Values whose DOUBLE sum depends on the order they are added in.
DOUBLES = [0.1, 0.2, 0.3, 1e16, -1e16, 3.0, None]

_windows = st.one_of(
    st.builds(lambda size: {"type": "tumble", "size_ms": size}, st.integers(1, 40)),
    st.builds(lambda slide, times: {"type": "hop", "size_ms": slide * times, "slide_ms": slide},
              st.integers(1, 10), st.integers(1, 5)),
    st.builds(lambda slide, size: {"type": "hop", "size_ms": size, "slide_ms": slide},
              st.integers(2, 10), st.integers(1, 40)),  # sizes that are no multiple of the slide
    st.builds(lambda gap: {"type": "session", "gap_ms": gap}, st.integers(1, 30)),
)
_row = st.tuples(st.integers(0, 5), st.integers(-40, 60), st.sampled_from(DOUBLES),
                 st.one_of(st.none(), st.integers(-9, 9)))
_step = st.tuples(st.lists(_row, max_size=40), st.integers(0, 50), st.booleans())


def descriptor(window: dict) -> dict:
    aggregates = [{"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"},
                  {"function": "sum", "arg": "x", "acc": "DOUBLE"},
                  {"function": "max", "arg": "y", "acc": "BIGINT"},
                  {"function": "count", "arg": "y", "acc": "BIGINT NOT NULL"}]
    inputs = [{"name": "$key", "type": "VARBINARY(2147483647)"}, {"name": "$key_group", "type": "INT NOT NULL"},
              {"name": "$time", "type": "BIGINT NOT NULL"}, {"name": "x", "type": "DOUBLE"},
              {"name": "y", "type": "BIGINT"}]
    outputs = [{"name": "k", "type": "BIGINT"}, {"name": "c", "type": "BIGINT NOT NULL"},
               {"name": "s", "type": "DOUBLE"}, {"name": "m", "type": "BIGINT"},
               {"name": "n", "type": "BIGINT NOT NULL"},
               {"name": "window_start", "type": "TIMESTAMP(3) NOT NULL"},
               {"name": "window_end", "type": "TIMESTAMP(3) NOT NULL"}]
    return {"protocol": 1, "kind": "group_window", "name": "test", "window": window,
            "keys": [{"name": "k", "type": "BIGINT"}], "input": {"fields": inputs},
            "aggregates": [{"emit": True, **a} for a in aggregates],
            "window_properties": ["window_start", "window_end"], "output": {"fields": outputs},
            "state": {"format": 1, "fingerprint": "ab" * 32}}


def _update(stage: GroupWindowStage, rows: list, clock: int, watermark: int) -> pa.RecordBatch:
    # Keys of two widths, as keys of variable-length fields have.
    keys = [b"key-%d" % k if k % 2 else b"k%d" % k for k, _, _, _ in rows]
    columns = [pa.array(keys, pa.binary()), pa.array([k % 3 for k, _, _, _ in rows], pa.int32()),
               pa.array([clock + t for _, t, _, _ in rows], pa.int64()),
               pa.array([x for _, _, x, _ in rows], pa.float64()), pa.array([y for _, _, _, y in rows], pa.int64())]
    batch = pa.RecordBatch.from_arrays(columns, schema=stage.spec.input_schema)
    return batch.replace_schema_metadata({b"accelerator.call": b"update", b"accelerator.state_budget": BUDGET,
                                          b"accelerator.progress": str(watermark).encode()})


def _call(name: str, **metadata) -> pa.RecordBatch:
    return pa.RecordBatch.from_pylist([]).replace_schema_metadata(
        {b"accelerator.call": name.encode(), b"accelerator.state_budget": BUDGET,
         **{f"accelerator.{k}".encode(): str(v).encode() for k, v in metadata.items()}})


def _answer(batch: pa.RecordBatch):
    metadata = {k: v for k, v in (batch.schema.metadata or {}).items() if k == b"accelerator.dropped"}
    return batch.to_pydict(), metadata


class TimerSet:
    """One run's event-time timers as Flink's timer service holds them, (key, start, end, time): a
    registration of a timer it holds and a deletion of one it does not change nothing."""

    def __init__(self):
        self.timers: set[tuple] = set()

    def apply(self, update_answer: pa.RecordBatch):
        """The changes the answer's timer calls make, in order, and its late-row count."""
        answer, dropped = _answer(update_answer)
        changes = []
        for key, op, start, end, time in zip(answer["$key"], answer["$op"], answer["$start"], answer["$end"],
                                             answer["$timer_time"]):
            timer = (key, start, end, time)
            if op == 1 and timer not in self.timers:
                self.timers.add(timer)
                changes.append((op, timer))
            elif op == -1 and timer in self.timers:
                self.timers.remove(timer)
                changes.append((op, timer))
        return changes, dropped

    def advance(self, watermark: int) -> None:
        """The timers a watermark fires are gone."""
        self.timers = {t for t in self.timers if t[3] > watermark}


@SETTINGS
@given(window=_windows, steps=st.lists(_step, min_size=1, max_size=8), base=st.sampled_from(BASES))
def test_batch_assignment_matches_per_row(window, steps, base):
    batched, per_row = GroupWindowStage(descriptor(window)), GroupWindowStage(descriptor(window))
    per_row._calls["update"] = partial(per_row_assignment.update, per_row)
    per_row._calls["fire"] = partial(per_window_firing.fire, per_row)
    batched_timers, per_row_timers = TimerSet(), TimerSet()
    clock, watermark = base, LONG_MIN
    for rows, advance, restore in steps:
        update = _update(batched, rows, clock, watermark)
        assert batched_timers.apply(batched.process(update)) == per_row_timers.apply(per_row.process(update))
        clock += advance
        watermark = max(watermark, clock - 20)
        fire = _call("fire", watermark=watermark)
        assert _answer(batched.process(fire)) == _answer(per_row.process(fire))
        batched_timers.advance(watermark)
        per_row_timers.advance(watermark)
        if restore:
            state = batched.process(_call("snapshot"))
            batched = GroupWindowStage(descriptor(window))
            batched.process(state.replace_schema_metadata({**state.schema.metadata, **_call(
                "restore", key_group_start=0, key_group_end=2).schema.metadata}))
    assert batched.state.entries == per_row.state.entries
    snapshot = _call("snapshot")
    assert batched.process(snapshot).to_pydict() == per_row.process(snapshot).to_pydict()
