from pathlib import Path

from accelerator.compat import case as cases
from accelerator.compat.inputs import PendingRecord
from accelerator.compat.runner import (CompatRunner, RunOutcome, _operators, _root_cause, _with_encoded, acceleration_of, achieved, missing_operators,
                                       source_records_in, unmatched_reasons)
from accelerator.testing.kafka import Record


def test_a_stock_part_without_an_operator_of_its_own_makes_an_accelerated_graph_partial():
    # A rows stage feeding a stock Kafka sink: only the sink's format runs stock.
    graph = acceleration_of(["Source: bid[4] -> Accelerated[bid-rows] -> out[6]: Writer -> out[6]: Committer"])
    assert graph == "accelerated"
    assert achieved(graph, ["segment bid-to-out: sink out: encoding 'protobuf' is not accelerated yet"]) == "partial"
    assert achieved(graph, []) == "accelerated"
    assert achieved(graph, ["accelerator explain failed: boom"]) == "accelerated"
    assert achieved("stock", ["segment bid-rows: source bid: watermark alignment ('scan.watermark.alignment.*') pauses the source's splits; not reproduced yet"]) == "stock"
    assert achieved("partial", ["not a segment: x"]) == "partial"


def test_only_the_stages_reading_sources_count_source_messages():
    # a rows stage read 40 messages, the group aggregate after it emitted 25 rows, which the encode stage encoded
    accumulators = {"accelerator.sidecarRecordsIn.events-rows": 40, "accelerator.sidecarRecordsIn.totals-encode": 25,
                    "accelerator.sidecarRecordsIn.totals-encode-2": 3, "accelerator.sidecarRecordsIn.bid-to-encoded": 7}
    assert source_records_in(accumulators) == 47


def test_acceleration_is_read_from_operator_names():
    assert acceleration_of(["Source: bid[1] -> Calc[2] -> Sink: out[3]"]) == "stock"
    assert acceleration_of(["Source: i[4] -> Accelerated[i-to-o] -> o[6]: Writer -> o[6]: Committer"]) == "accelerated"
    assert acceleration_of(["Source: i[1] -> Calc[2] -> o[3]: Writer -> o[3]: Committer"]) == "stock"
    assert acceleration_of(["Source: bid[1] -> Accelerated[Calc[2]]", "Sink: out[3]"]) == "accelerated"
    assert acceleration_of(["Source: bid[1] -> Accelerated[Calc[2]] -> GroupAggregate[4]",
                            "Sink: out[3]"]) == "partial"
    assert acceleration_of([]) == "stock"


def test_a_case_can_require_accelerated_operators_by_name():
    operators = _operators(["Source: bids[1] -> Accelerated[bids-rows]", "Accelerated[bids-window-agg] -> Calc[6]",
                            "Sink: out[7]"])
    assert missing_operators(("bids-window-agg",), operators) == []
    assert missing_operators(("bids-window-agg", "bids-window-agg-2"), operators) == ["Accelerated[bids-window-agg-2]"]
    assert missing_operators(("bids-window",), operators) == ["Accelerated[bids-window]"]
    assert missing_operators((), []) == []


def test_a_case_can_require_the_reasons_its_parts_stay_stock():
    parts = ["not a segment: out: fed by StreamExecGlobalWindowAggregate, not by Calcs over a Kafka source",
             "window aggregate bids-window-agg: aggregates: AVG(price) is not accelerated; only COUNT(*)"]
    assert unmatched_reasons(("AVG(price) is not accelerated", "window aggregate bids-window-agg"), parts) == []
    assert unmatched_reasons(("HOP windows are not accelerated", "AVG(price)"), parts) == \
        ["HOP windows are not accelerated"]
    assert unmatched_reasons(("AVG(price)",), []) == ["AVG(price)"]


def test_root_cause_is_the_innermost_caused_by():
    trace = ("org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat x\n"
             "Caused by: java.io.IOException: Failed to deserialize JSON '{\"a\": '.\n\tat y\n"
             "Caused by: org.apache.flink.shaded.jackson.core.JsonParseException: Unexpected end-of-input\n\tat z\n")
    assert _root_cause(trace) == "org.apache.flink.shaded.jackson.core.JsonParseException: Unexpected end-of-input"
    assert _root_cause("java.lang.RuntimeException: alone\n\tat a") == "java.lang.RuntimeException: alone"


def test_summary_counts_cases_per_area():
    from accelerator.compat.runner import CaseResult
    from accelerator.compat.summary import render

    def result(name, passed=True, status="identical", acceleration="stock", expect=None, detail=""):
        return CaseResult(name, status, passed, acceleration, [], 1, 1, 1, expect, detail)

    text = render([result("fn_upper"), result("fn_lower", acceleration="accelerated"),
                   result("tumble", expect="stock"), result("inner_join_json", acceleration="partial"),
                   result("union_all_json"), result("group_agg_avg_json", acceleration="accelerated"),
                   result("topn_rownum_desc_json", acceleration="accelerated"),
                   result("fn_bad", passed=False, status="mismatch", detail="topic out: message 0\nmore")],
                  "make compat-docs", "2.2.1")
    assert "on stock Flink 2.2.1 and" in text
    assert "| built-in functions | 3 | 2 | 0 | 2 | 1 | 0 | 2 |" in text
    assert "| stateful shapes | 4 | 4 | 0 | 4 | 2 | 1 | 1 |" in text
    assert "| formats, options, metadata, time zones | 1 | 1 | 0 | 1 | 0 | 0 | 1 |" in text
    assert "| **all** | 8 | 7 | 0 | 7 | 3 | 1 | 4 |" in text
    assert "- `fn_bad`: mismatch: topic out: message 0" in text
    assert "Other Flink releases" not in text


def test_summary_has_one_row_per_other_flink_release_from_its_report(tmp_path):
    from accelerator.compat.runner import CaseResult, read_report, write_report
    from accelerator.compat.summary import render

    def result(name, passed=True, acceleration="accelerated"):
        return CaseResult(name, "identical" if passed else "mismatch", passed, acceleration, [], 1, 1, 1,
                          detail="" if passed else "topic out: message 3 differs")

    write_report(tmp_path / "r.json", "2.3.0", [result("fn_a"), result("fn_b", acceleration="partial"),
                                                 result("json_c", passed=False, acceleration="stock")])
    release, other = read_report(tmp_path / "r.json")
    assert release == "2.3.0" and [r.name for r in other] == ["fn_a", "fn_b", "json_c"]
    text = render([result("fn_a"), result("fn_b")], "make compat-docs", "2.2.1",
                  [(release, other), ("2.2.0", [result("fn_a", acceleration="stock")])])
    releases = text.split("## Other Flink releases\n", 1)[1]
    assert "| 2.2.1 (above) | 2 | 2 | 0 | 2 | 2 | 0 | 0 |" in releases
    assert "| 2.3.0 | 3 | 2 | 0 | 2 | 1 | 1 | 1 |" in releases
    assert "| 2.2.0 | 1 | 1 | 0 | 1 | 0 | 0 | 1 |" in releases
    assert "### Failing cases on Flink 2.3.0\n\n- `json_c`: mismatch: topic out: message 3 differs" in releases
    assert "Failing cases on Flink 2.2.0" not in releases


def test_failures_compare_by_root_cause_or_as_rejected_input(tmp_path):
    from accelerator.compat.case import Case
    from accelerator.compat.runner import CompatRunner, RunOutcome

    case = Case(name="c", path=tmp_path, script="", topics=("src", "dst"), inputs={"src": tmp_path},
                formats={"src": "json", "dst": "json"}, expect_failure=True)
    runner = CompatRunner(None, None, None)
    stock = RunOutcome(failure="JsonEOFException: Unexpected end-of-input")
    same = runner._compare(case, stock, RunOutcome(failure="JsonEOFException: Unexpected end-of-input"))
    rejected = runner._compare(case, stock, RunOutcome(
        failure="StageFailedException: ... FormatError: row 1: Flink's json format cannot decode this record"))
    crashed = runner._compare(case, stock, RunOutcome(failure="SidecarException: the sidecar died"))
    assert (same.status, same.passed) == ("identical", True)
    assert (rejected.status, rejected.passed) == ("equivalent", True)
    assert (crashed.status, crashed.passed) == ("mismatch", False)
    assert not runner._compare(case, RunOutcome(outputs={"dst": []}), RunOutcome(outputs={"dst": []})).passed


def test_a_null_rowtime_fails_both_runs_on_the_same_row_or_it_is_a_mismatch(tmp_path):
    from accelerator.compat.case import Case
    from accelerator.compat.runner import CompatRunner, RunOutcome

    case = Case(name="c", path=tmp_path, script="", topics=("src", "dst"), inputs={"src": tmp_path},
                formats={"src": "json", "dst": "json"}, expect_failure=True)
    runner = CompatRunner(None, None, None)
    ours = RunOutcome(failure="StageFailedException: ... SinkRowtimeNullError: the rowtime column 'ts' is NULL in"
                              " result row 2")
    npe = runner._compare(case, RunOutcome(failure="java.lang.NullPointerException"), ours)
    other = runner._compare(case, RunOutcome(failure="java.lang.ArithmeticException: / by zero"), ours)
    not_null = runner._compare(case, RunOutcome(failure="EnforcerException: Column 'name' is NOT NULL, however, a"
                                                        " null value is being written into it."), ours)
    assert (npe.status, npe.passed) == ("equivalent", True)
    assert (other.status, other.passed) == ("mismatch", False)
    assert (not_null.status, not_null.passed) == ("mismatch", False), "stock failed on a NOT NULL column first"


def test_a_row_flink_encodes_takes_flinks_key_unless_its_envelope_gives_one():
    flink = Record(value=b"v", key=b"flink-key")
    assert _with_encoded(PendingRecord(value=None, row={"a": 1}, partition=1), flink) == \
        Record(value=b"v", key=b"flink-key", partition=1)
    assert _with_encoded(PendingRecord(value=None, row={"a": 1}, key=b"mine"), flink).key == b"mine"
    assert _with_encoded(PendingRecord(value=b"as written", key=b"k"), None) == Record(value=b"as written", key=b"k")


def test_a_not_null_failure_must_name_the_column_stock_flink_names(tmp_path):
    from accelerator.compat.case import Case
    from accelerator.compat.runner import CompatRunner, RunOutcome

    case = Case(name="c", path=tmp_path, script="", topics=("src", "dst"), inputs={"src": tmp_path},
                formats={"src": "json", "dst": "json"}, expect_failure=True)
    runner = CompatRunner(None, None, None)
    stock = RunOutcome(failure="org.apache.flink.table.runtime.operators.sink.constraint.EnforcerException: Column"
                               " 'name' is NOT NULL, however, a null value is being written into it.")
    same = runner._compare(case, stock, RunOutcome(failure="SinkNotNullError: sink column 'name' is NOT NULL, but"))
    other = runner._compare(case, stock, RunOutcome(failure="SinkNotNullError: sink column 'id' is NOT NULL, but"))
    assert (same.status, same.passed) == ("equivalent", True)
    assert (other.status, other.passed) == ("mismatch", False)
    # Flink 1.20's enforcer fails with a TableException saying the same.
    stock_120 = RunOutcome(failure="org.apache.flink.table.api.TableException: Column 'name' is NOT NULL, however,"
                                   " a null value is being written into it.")
    same_120 = runner._compare(case, stock_120, RunOutcome(failure="SinkNotNullError: sink column 'name' is NOT NULL"))
    assert (same_120.status, same_120.passed) == ("equivalent", True)


def test_an_accelerated_failure_must_name_the_cases_bad_record(tmp_path):
    from accelerator.compat.case import Case
    from accelerator.compat.runner import CompatRunner, RunOutcome

    case = Case(name="c", path=tmp_path, script="", topics=("src", "dst"), inputs={"src": tmp_path},
                formats={"src": "json", "dst": "json"}, expect_failure=True, bad_record=("src", 0, 1))
    runner = CompatRunner(None, None, None)
    stock = RunOutcome(failure="JsonEOFException: Unexpected end-of-input")

    def accelerated(where: str) -> RunOutcome:
        return RunOutcome(failure="JsonEOFException: Unexpected end-of-input", acceleration="accelerated",
                          topics={"src": "c-src-acc", "dst": "c-dst-acc"},
                          failure_trace=f"SidecarException: batch 1 of 3 messages failed at message 1 of the batch"
                                        f" ({where}): ...\nCaused by: JsonEOFException: Unexpected end-of-input")

    named = runner._compare(case, stock, accelerated("topic 'c-src-acc', partition 0, offset 1"))
    wrong = runner._compare(case, stock, accelerated("topic 'c-src-acc', partition 0, offset 2"))
    assert (named.status, named.passed) == ("identical", True)
    assert (wrong.status, wrong.passed) == ("mismatch", False) and "offset 1" in wrong.detail


def test_a_case_that_does_not_apply_passes_only_when_stock_flink_rejects_it(tmp_path, monkeypatch):
    from accelerator.compat.case import Case
    from accelerator.compat.runner import CompatRunner, RunOutcome
    from accelerator.testing.flink import SqlSubmissionFailed

    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "1.20.3")
    case = Case(name="c", path=tmp_path, script="", topics=("src", "dst"), inputs={"src": tmp_path},
                formats={"src": "json", "dst": "json"}, not_applicable="1.20 has no URL_ENCODE")
    runner = CompatRunner(None, None, None)
    runs = []
    monkeypatch.setattr(runner, "_input_records", lambda case: {})

    def stock_run(outcome):
        def run(case, records, accelerated):
            runs.append(accelerated)
            if isinstance(outcome, Exception):
                raise outcome
            return outcome
        return run

    monkeypatch.setattr(runner, "_run", stock_run(SqlSubmissionFailed(
        "c/case.sql (stock-1): SqlValidatorException: No match found for function signature URL_ENCODE(<CHARACTER>)\n"
        "-- in statement: ...")))
    rejected = runner.run_case(case)
    monkeypatch.setattr(runner, "_run", stock_run(RunOutcome(failure="TableException: unsupported", duration_ms=5)))
    failed_job = runner.run_case(case)
    monkeypatch.setattr(runner, "_run", stock_run(RunOutcome(outputs={"dst": [Record(value=b"1")]})))
    accepted = runner.run_case(case)

    assert runs == [False, False, False], "only the stock side runs"
    assert (rejected.status, rejected.passed, rejected.acceleration) == ("not applicable", True, "not run")
    assert rejected.line().startswith("N/A  c ") and accepted.line().startswith("FAIL c ")
    assert rejected.detail == ("1.20 has no URL_ENCODE (stock Flink 1.20.3 rejects it: c/case.sql (stock-1): "
                               "SqlValidatorException: No match found for function signature URL_ENCODE(<CHARACTER>))")
    assert (failed_job.status, failed_job.passed, failed_job.stock_ms) == ("not applicable", True, 5)
    assert (accepted.status, accepted.passed) == ("error", False)
    assert "stock Flink 1.20.3 ran this case" in accepted.detail and "1.20 has no URL_ENCODE" in accepted.detail


def test_the_summary_counts_and_lists_cases_that_do_not_apply_to_a_release():
    from accelerator.compat.runner import CaseResult
    from accelerator.compat.summary import render

    def result(name, status="identical", acceleration="accelerated", detail=""):
        return CaseResult(name, status, True, acceleration, [], 1, 1, 1, detail=detail)

    skipped = result("fn_url_codec", "not applicable", "not run", "1.20 has no URL_ENCODE (stock Flink 1.20.3 "
                                                                  "rejects it: No match found)")
    text = render([result("fn_url_codec"), result("fn_upper")], "make compat-docs", "2.2.1",
                  [("1.20.3", [skipped, result("fn_upper")])])
    assert "| built-in functions | 2 | 2 | 0 | 2 | 2 | 0 | 0 |" in text
    releases = text.split("## Other Flink releases\n", 1)[1]
    assert "| 1.20.3 | 2 | 1 | 1 | 1 | 1 | 0 | 0 |" in releases
    assert ("### Not applicable on Flink 1.20.3\n\n- `fn_url_codec`: 1.20 has no URL_ENCODE (stock Flink 1.20.3 "
            "rejects it: No match found)") in releases
    assert "Failing cases on Flink 1.20.3" not in releases
    assert "Not applicable on Flink 2.2.1" not in text


def test_the_report_is_written_before_the_services_stop(tmp_path, monkeypatch):
    # A cluster stop that fails at the end of a suite (a daemon that survived SIGKILL) must not lose
    # the suite's results.
    from contextlib import nullcontext

    from accelerator.compat import runner
    from accelerator.compat.runner import CaseResult, read_report, run_suite

    class StopFails:
        def __init__(self, **_):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *_):
            raise TimeoutError("processes [4242] survived SIGKILL")

    class Gateway:
        def __init__(self, _cluster):
            pass

        def start(self):
            return self

        def stop(self):
            pass

    monkeypatch.setattr(runner, "KafkaBroker", nullcontext)
    monkeypatch.setattr(runner, "FlinkCluster", StopFails)
    monkeypatch.setattr(runner, "SqlGateway", Gateway)
    monkeypatch.setattr(runner.locations, "shim_jar", lambda: tmp_path / "no.jar")
    monkeypatch.setattr(runner.CompatRunner, "run_case", lambda self, case: CaseResult(
        case, "identical", True, "stock", [], 1, 1, 1))
    report = tmp_path / "report.json"
    try:
        run_suite(["fn_a", "fn_b"], workers=1, report=report, out=lambda _: None)
    except TimeoutError:
        pass
    else:
        raise AssertionError("the fake cluster's stop must fail")
    assert [r.name for r in read_report(report)[1]] == ["fn_a", "fn_b"]


def test_two_tables_on_one_topic_each_hand_every_message_to_a_sidecar():
    # Nexmark's one event topic read as two tables (persons and auctions): each source reads all of it.
    case = cases.load(Path("flink-compat-tests/cases/join_inner_same_topic_partitions_json"))
    assert case.sources_on("events") == 2 and case.sources_on("q3") == 1
    records = {"events": [Record(b"{}", partition=0)] * 250}
    assert CompatRunner._check_through_sidecar(case, records, RunOutcome(sidecar_records_in=500)) is None
    missed = CompatRunner._check_through_sidecar(case, records, RunOutcome(sidecar_records_in=250))
    assert missed is not None and not missed.passed and "saw 250 records; its sources hold 500" in missed.detail


def test_a_table_declared_on_a_topic_but_never_read_is_no_source():
    # the hand-written avro case declares the raw bytes beside the typed table; only the typed one is read
    case = cases.load(Path("flink-compat-tests/cases/avro_tombstone_and_null_unions"))
    assert case.sources_on("src") == 1
    records = {"src": [Record(b"x", partition=0)] * 3}
    assert CompatRunner._check_through_sidecar(case, records, RunOutcome(sidecar_records_in=3)) is None
