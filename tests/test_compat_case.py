"""The case format: what a case folder declares, and the errors a broken one gets."""

import pytest

from accelerator.compat import case as cases
from accelerator.compat import inputs

SCRIPT = """
CREATE TABLE src (a INT) WITH ('connector' = 'kafka', 'topic' = '${topic:src}',
  'properties.bootstrap.servers' = '${bootstrap}', 'value.format' = 'raw');
CREATE TABLE side (a INT) WITH ('connector' = 'kafka', 'topic' = '${topic:side}', 'format' = 'json',
  'properties.bootstrap.servers' = '${bootstrap}');
CREATE TABLE dst (a INT) WITH ('connector' = 'kafka', 'topic' = '${topic:dst}', 'format' = 'csv',
  'properties.bootstrap.servers' = '${bootstrap}');
INSERT INTO dst SELECT a FROM src;
"""


def make_case(tmp_path, script=SCRIPT, yaml_text=None, **files):
    folder = tmp_path / "my_case"
    (folder / "input").mkdir(parents=True)
    (folder / "case.sql").write_text(script)
    if yaml_text is not None:
        (folder / "case.yaml").write_text(yaml_text)
    for name, text in files.items():
        (folder / "input" / f"{name}.jsonl").write_text(text)
    return folder


def test_topics_inputs_outputs_and_formats_come_from_the_folder(tmp_path):
    folder = make_case(tmp_path, yaml_text="partitions: {dst: 3}\nordered: false\nexpect: partial\n",
                       src='"a"\n', side='{"a": 1}\n')
    case = cases.load(folder)
    assert case.topics == ("src", "side", "dst")
    assert case.outputs == ("dst",)
    assert case.formats == {"src": "raw", "side": "json", "dst": "csv"}
    assert (case.partitions_of("dst"), case.partitions_of("src"), case.ordered, case.expect) == (3, 1, False, "partial")


@pytest.mark.parametrize("yaml_text, files, message", [
    ("colour: red\n", {}, "keys must be among"),
    ("expect: sometimes\n", {}, "expect must be one of"),
    ("partitions: {nope: 2}\n", {}, "does not use"),
    ("bad_record: {topic: src, partition: 0, offset: 1}\n", {}, "needs expect_failure"),
    ("expect_failure: true\nbad_record: {topic: src, offset: 1}\n", {}, "bad_record must be"),
    (None, {"stray": "1\n"}, "never uses"),
    (None, {"src": "1\n", "side": "1\n", "dst": "1\n"}, "nothing to compare"),
])
def test_broken_cases_are_rejected_with_the_reason(tmp_path, yaml_text, files, message):
    with pytest.raises(cases.CaseError, match=message):
        cases.load(make_case(tmp_path, yaml_text=yaml_text, **files))


def test_accelerated_operators_are_read_by_name(tmp_path):
    case = cases.load(make_case(tmp_path, yaml_text="accelerated_operators: [src-window-agg]\n",
                                src='"x"\n', side='{"a": 1}\n'))
    assert case.accelerated_operators == ("src-window-agg",)
    assert cases.load(make_case(tmp_path / "other", src='"x"\n', side='{"a": 1}\n')).accelerated_operators == ()


def test_fallback_reasons_are_read_as_texts(tmp_path):
    case = cases.load(make_case(tmp_path, yaml_text="fallback_reasons: ['AVG(v) is not accelerated', 'HOP']\n",
                                src='"x"\n', side='{"a": 1}\n'))
    assert case.fallback_reasons == ("AVG(v) is not accelerated", "HOP")
    assert cases.load(make_case(tmp_path / "other", src='"x"\n', side='{"a": 1}\n')).fallback_reasons == ()


def test_the_expected_acceleration_can_differ_on_a_named_flink_release(tmp_path, monkeypatch):
    yaml_text = 'expect: accelerated\nexpect_on_flink: {"2.3.0": stock}\n'
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "2.3.0")
    assert cases.load(make_case(tmp_path / "a", yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')).expect == "stock"
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "2.2.0")
    assert cases.load(make_case(tmp_path / "b", yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')).expect == "accelerated"


def test_the_fallback_reasons_can_differ_on_a_named_flink_line(tmp_path, monkeypatch):
    yaml_text = 'fallback_reasons: [async state]\nfallback_reasons_on_flink: {"1.20": []}\n'
    folder = make_case(tmp_path, yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "1.20.3")
    assert cases.load(folder).fallback_reasons == ()
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "2.2.1")
    assert cases.load(folder).fallback_reasons == ("async state",)


def test_the_operators_that_must_run_accelerated_can_differ_on_a_named_flink_line(tmp_path, monkeypatch):
    yaml_text = 'accelerated_operators: [orders-over-agg]\naccelerated_operators_on_flink: {"1.20": []}\n'
    folder = make_case(tmp_path, yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "1.20.3")
    assert cases.load(folder).accelerated_operators == ()
    monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", "2.3.0")
    assert cases.load(folder).accelerated_operators == ("orders-over-agg",)


def test_whether_stock_flink_must_fail_can_differ_on_a_named_flink_line(tmp_path, monkeypatch):
    yaml_text = 'expect_failure: true\nexpect_failure_on_flink: {"1.20": false}\n'
    folder = make_case(tmp_path, yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')
    for release, fails in [("1.20.3", False), ("2.2.1", True), ("2.3.0", True)]:
        monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", release)
        assert cases.load(folder).expect_failure is fails, release


def test_a_case_does_not_apply_to_the_flink_lines_or_releases_it_names(tmp_path, monkeypatch):
    yaml_text = 'not_applicable_on_flink: {"1.20": "1.20 has no URL_ENCODE", "2.3.0": "2.3.0 rejects it"}\n'
    folder = make_case(tmp_path, yaml_text=yaml_text, src='"x"\n', side='{"a": 1}\n')
    for release, reason in [("1.20.3", "1.20 has no URL_ENCODE"), ("1.20.0", "1.20 has no URL_ENCODE"),
                            ("2.3.0", "2.3.0 rejects it"), ("2.3.1", None), ("2.2.1", None), ("1.2.0", None)]:
        monkeypatch.setenv("ACCELERATOR_FLINK_VERSION", release)
        assert cases.load(folder).not_applicable == reason, release


@pytest.mark.parametrize("setting", ["{1.20: reason}", '{"1.20": ""}', '["1.20"]'])
def test_a_not_applicable_entry_needs_a_quoted_release_and_a_reason(tmp_path, setting):
    # Unquoted, YAML reads 1.20 as the number 1.2, which would name no release at all.
    with pytest.raises(cases.CaseError, match="not_applicable_on_flink must map quoted"):
        cases.load(make_case(tmp_path, yaml_text=f"not_applicable_on_flink: {setting}\n", src='"x"\n',
                             side='{"a": 1}\n'))


def test_unknown_placeholders_are_rejected(tmp_path):
    with pytest.raises(cases.CaseError, match="unknown placeholders"):
        cases.load(make_case(tmp_path, script=SCRIPT + "-- ${brokers}\n"))


def test_input_lines_by_format(tmp_path):
    case = cases.load(make_case(tmp_path, src='"tab\\t✓"\nnull\n', side='{"a": 1}\n{"a": \n'))
    assert [r.value for r in inputs.records(case, "src")] == ["tab\t✓".encode(), None]
    assert [r.value for r in inputs.records(case, "side")] == [b'{"a": 1}', b'{"a": ']


def test_wrapped_envelopes_carry_key_partition_timestamp_and_headers(tmp_path):
    envelope = ('{"value": {"a": 1, "b": "é"}, "key": "k", "partition": 2, "timestamp": 5, '
                '"headers": {"h": "v", "n": null}}\n{"value": "{not json", "key": null}\n')
    case = cases.load(make_case(tmp_path, yaml_text="wrapped: [side]\n", side=envelope))
    first, second = inputs.records(case, "side")
    assert first.value == '{"a":1,"b":"é"}'.encode()
    assert (first.key, first.partition, first.timestamp, first.headers) == (b"k", 2, 5, (("h", b"v"), ("n", None)))
    assert (second.value, second.key) == (b"{not json", None)


def test_avro_and_protobuf_lines_are_rows_for_flink_to_encode(tmp_path):
    script = SCRIPT.replace("'value.format' = 'raw'", "'value.format' = 'protobuf'").replace(
        "'format' = 'json'", "'format' = 'avro'")
    case = cases.load(make_case(tmp_path, script=script, src='{"a": 1}\n', side='{"a": 2}\n'))
    assert [(r.value, r.row) for r in inputs.records(case, "src")] == [(None, {"a": 1})]
    assert [(r.value, r.row) for r in inputs.records(case, "side")] == [(None, {"a": 2})]


def test_bad_input_lines_name_file_and_line(tmp_path):
    case = cases.load(make_case(tmp_path, src='"ok"\n42\n'))
    with pytest.raises(cases.CaseError, match=r"src.jsonl:2: expected a JSON string literal"):
        inputs.records(case, "src")


def test_the_shipped_corpus_loads():
    from accelerator.testing.locations import REPO_ROOT

    corpus = cases.discover([REPO_ROOT / "flink-compat-tests" / "cases"])
    assert len(corpus) >= 10



def test_wrapped_headers_may_repeat_a_name_as_a_list_of_pairs(tmp_path):
    envelope = '{"value": {"a": 1}, "headers": [["h", "1"], ["n", null], ["h", "2"]]}\n'
    case = cases.load(make_case(tmp_path, yaml_text="wrapped: [side]\n", side=envelope))
    (record,) = inputs.records(case, "side")
    assert record.headers == (("h", b"1"), ("n", None), ("h", b"2"))
