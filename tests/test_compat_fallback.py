"""The compat report's fallback reasons: real cases planned by `accelerator explain`, and their table."""

from __future__ import annotations

from accelerator.compat import case as cases
from accelerator.compat.runner import CaseResult
from accelerator.compat.summary import render
from accelerator.testing import locations

CASES = locations.REPO_ROOT / "flink-compat-tests" / "cases"


def test_reasons_of_real_cases_come_from_the_planner():
    from accelerator.compat.fallback import fallback_reasons

    locations.require(locations.shim_jar(), "the flink-accelerator jar")
    locations.require(locations.flink_home() / "lib", "the stock Flink distribution")
    chosen = [cases.load(CASES / name) for name in ("fn_parse_url", "nexmark_q2_json", "tumble_window_json")]
    reasons = fallback_reasons(chosen, locations.shim_jar())
    assert reasons["nexmark_q2_json"] == []
    (parse_url,) = reasons["fn_parse_url"]
    assert parse_url.startswith("segment src-to-results: ") and "PARSE_URL" in parse_url, parse_url
    # Its watermarked source runs partly accelerated; only the window stays stock.
    (window,) = reasons["tumble_window_json"]
    assert window.startswith("not a segment: ") and "WindowAggregate" in window, window


def test_an_unplannable_case_reports_why_explain_failed(tmp_path):
    from accelerator.compat.fallback import fallback_reasons

    broken = cases.Case(name="broken", path=tmp_path, script="INSERT INTO nowhere SELECT 1;\n", topics=(),
                        inputs={}, formats={})
    (reason,) = fallback_reasons([broken], locations.shim_jar())["broken"]
    assert reason.startswith("accelerator explain failed: Statement at line 1 failed: "), reason
    assert "nowhere" in reason


def test_summary_lists_the_reasons_of_cases_that_keep_stock_parts():
    def result(name, acceleration, reasons):
        return CaseResult(name, "identical", True, acceleration, reasons, 1, 1, 1)

    text = render([result("fn_a", "accelerated", []), result("fn_b", "stock", ["segment s-to-t: calc: X | Y"]),
                   result("w", "stock", ["not a segment: t: fed by a window", "second"])], "make compat-docs", "2.2.1")
    section = text.split("## Why parts stay on stock Flink\n", 1)[1]
    assert "| `fn_b` | stock | segment s-to-t: calc: X \\| Y |" in section
    assert "| `w` | stock | not a segment: t: fed by a window<br>second |" in section
    assert "fn_a" not in section
    assert "## Why parts stay" not in render([result("fn_a", "accelerated", [])], "x", "2.2.1")


def test_one_case_alone_gets_its_reasons_too():
    from accelerator.compat.fallback import fallback_reasons

    (reason,) = fallback_reasons([cases.load(CASES / "fn_parse_url")], locations.shim_jar())["fn_parse_url"]
    assert "PARSE_URL" in reason, reason
