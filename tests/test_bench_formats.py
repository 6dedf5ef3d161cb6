"""`accelerator bench-formats` at a tiny size: both sides measured on Flink's own bytes, and the
byte check that stops the run when our encoder writes anything else."""

import json

import pyarrow as pa
import pytest

from accelerator.bench import docs_section
from accelerator.bench.formats import runner, summary
from accelerator.formats import avro, json_encoder

ROWS, BATCH = 600, 256


def test_both_sides_are_measured_on_bytes_both_formats_agree_on(tmp_path):
    report_path, docs = tmp_path / "formats.json", tmp_path / "performance.md"
    docs.write_text("# Performance\n\nThe Nexmark table.\n")
    lines = []
    code = runner.main(ROWS, BATCH, 2, ["json", "avro"], report_path, docs, "accelerator bench-formats (test)",
                       out=lines.append)
    assert code == 0, "\n".join(lines)
    report = json.loads(report_path.read_text())
    assert [f["format"] for f in report["formats"]] == ["json", "avro"]
    for f in report["formats"]:
        assert f["byte_check"] == {"format": f["format"], "messages": ROWS, "decoded_rows_equal": True,
                                   "encoded_bytes_equal": True, "round_trip_bytes_equal": True}
        assert f["accelerator"]["round_trip_identical"] is True
        for side in ("flink", "accelerator"):
            assert f[side]["messages"] == ROWS and f[side]["bytes"] > 50 * ROWS
            assert len(f[side]["rounds"]) == 2 and len(f[side]["warm_up"]) == 1
            assert all(r["decode_ns"] > 0 and r["encode_ns"] > 0 for r in f[side]["rounds"])
        assert f["flink"]["bytes"] == f["accelerator"]["bytes"]  # the same messages on both sides
        assert f["flink"]["processors"] == 1 and f["accelerator"]["cpu_count"] == 1  # per core
    assert [(r["format"], r["direction"]) for r in report["ratios"]] == [
        (f, d) for f in ("json", "avro") for d in summary.DIRECTIONS]
    for r in report["ratios"]:
        assert r["flink_msgs_per_s"] > 0 and r["accelerator_msgs_per_s"] > 0 and r["ratio"] > 0
        assert (r["target"] is not None) == (r["direction"] == "decode+encode")
    page = docs.read_text()
    assert page.startswith("# Performance\n\nThe Nexmark table.\n")
    assert "accelerator bench-formats (test)" in page and "| json | decode+encode |" in page


@pytest.mark.parametrize("fmt, module", [("json", json_encoder), ("avro", avro)])
def test_the_run_fails_before_timing_when_our_encoder_writes_other_bytes(tmp_path, monkeypatch, fmt, module):
    original = module.encode

    def one_message_off(*args):
        values = original(*args).to_pylist()
        values[7] = values[7][:-1] + (b"?" if values[7][-1:] != b"?" else b"!")
        return pa.array(values, pa.binary())

    monkeypatch.setattr(module, "encode", one_message_off)
    report_path, lines = tmp_path / "formats.json", []
    code = runner.main(ROWS, BATCH, 1, [fmt], report_path, None, "test", out=lines.append)
    output = "\n".join(lines)
    assert code == 1, output
    assert f"FAIL: {fmt} encode of the generated rows: message 7 of {ROWS} differs from Flink's bytes" in output
    assert "timing both sides" not in output and not report_path.exists()


def test_a_rerun_replaces_its_section_and_keeps_the_rest_of_the_page(tmp_path):
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nNexmark.\n")
    docs_section.replace(page, "bench-formats", "first run")
    docs_section.replace(page, "bench-formats", "second run")
    text = page.read_text()
    assert text.startswith("# Performance\n\nNexmark.\n\n<!-- bench-formats: begin")
    assert "second run" in text and "first run" not in text and text.count("bench-formats: end") == 1
    assert docs_section.sections("# Other page\n" + text) == [docs_section.extract(text, "bench-formats")]


def test_the_nexmark_bench_rewriting_the_page_keeps_the_formats_section(tmp_path):
    from accelerator.bench import report
    from accelerator.testing.bench_report import invented_report

    nexmark = invented_report()
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nan older Nexmark table\n")
    docs_section.replace(page, "bench-formats", "the formats table")
    report.performance_page(nexmark, tmp_path / "report.md", tmp_path / "report.png", page)
    text = page.read_text()
    assert "an older Nexmark table" not in text and nexmark["command"] in text
    assert docs_section.extract(text, "bench-formats") == docs_section.render("bench-formats", "the formats table")
