"""The iteration order of the HashSet in which stock's SessionWindowAssigner collects the sessions a
row merges, against Flink's own TimeWindow in a real java.util.HashSet in the oracle's JVM: it
decides which session's accumulators the others merge into, and in which order."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator.groupwindow import windows
from accelerator.testing.flink_oracle import java

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
_windows = st.tuples(st.integers(-2 ** 40, 2 ** 45), st.integers(1, 10 ** 7)).map(lambda w: (w[0], w[0] + w[1]))


def java_order(added: list[tuple[int, int]]) -> list[tuple[int, int]]:
    j = java()
    time_window = j.jpype.JClass("org.apache.flink.table.runtime.operators.window.TimeWindow")
    hash_set = j.jpype.JClass("java.util.HashSet")()
    for start, end in added:
        hash_set.add(time_window.of(j.jpype.JLong(start), j.jpype.JLong(end)))
    return [(int(w.getStart()), int(w.getEnd())) for w in hash_set]


@SETTINGS
@given(added=st.lists(_windows, min_size=1, max_size=3))
def test_hash_set_order_is_javas(added):
    assert windows.hash_set_order(added) == java_order(added)


@SETTINGS
@given(window=_windows)
def test_time_window_hash_is_javas(window):
    j = java()
    time_window = j.jpype.JClass("org.apache.flink.table.runtime.operators.window.TimeWindow")
    assert windows.java_hash(window) == int(time_window.of(j.jpype.JLong(window[0]), j.jpype.JLong(window[1])).hashCode())
