from accelerator.compat.runner import _root_cause, acceleration_of


def test_acceleration_is_read_from_operator_names():
    assert acceleration_of(["Source: bid[1] -> Calc[2] -> Sink: out[3]"]) == "stock"
    assert acceleration_of(["Source: bid[1] -> Accelerated[Calc[2]]", "Sink: out[3]"]) == "accelerated"
    assert acceleration_of(["Source: bid[1] -> Accelerated[Calc[2]] -> GroupAggregate[4]",
                            "Sink: out[3]"]) == "partial"
    assert acceleration_of([]) == "stock"


def test_root_cause_is_the_innermost_caused_by():
    trace = ("org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat x\n"
             "Caused by: java.io.IOException: Failed to deserialize JSON '{\"a\": '.\n\tat y\n"
             "Caused by: org.apache.flink.shaded.jackson.core.JsonParseException: Unexpected end-of-input\n\tat z\n")
    assert _root_cause(trace) == "org.apache.flink.shaded.jackson.core.JsonParseException: Unexpected end-of-input"
    assert _root_cause("java.lang.RuntimeException: alone\n\tat a") == "java.lang.RuntimeException: alone"
