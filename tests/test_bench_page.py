"""docs/performance.md holds the parallelism-1 run as its page and each other parallelism's run in
its own section; each run rewrites only its part."""

from __future__ import annotations

from accelerator.bench import docs_section, report
from accelerator.testing.bench_report import invented_report


def _invented_report(tmp_path) -> tuple[dict, object]:
    return invented_report(), tmp_path / "results" / "report.json"


def test_a_parallelism_2_run_writes_its_section_and_the_main_run_keeps_it(tmp_path):
    nexmark, path = _invented_report(tmp_path)
    page = tmp_path / "performance.md"
    md, png = path.with_suffix(".md"), path.with_suffix(".png")
    report.performance_page({**nexmark, "parallelism": 1, "command": "make bench"}, md, png, page)
    report.parallelism_section({**nexmark, "parallelism": 2, "command": "make bench-p2"}, md, png, page)
    text = page.read_text()
    section = docs_section.extract(text, "bench-parallelism-2")
    assert section is not None and "make bench-p2" in section and "## Parallelism 2" in section
    assert text.index("make bench\n") < text.index(section), "the main table comes first"

    report.performance_page({**nexmark, "parallelism": 1, "command": "make bench again"}, md, png, page)
    rerun = page.read_text()
    assert "make bench again" in rerun and docs_section.extract(rerun, "bench-parallelism-2") == section


def test_a_stateful_run_writes_its_own_section_and_leaves_the_main_table(tmp_path):
    nexmark, path = _invented_report(tmp_path)
    page = tmp_path / "performance.md"
    md, png = path.with_suffix(".md"), path.with_suffix(".png")
    report.performance_page({**nexmark, "parallelism": 1, "command": "make bench"}, md, png, page)
    main = page.read_text()
    report.named_section({**nexmark, "command": "make bench-stateful"}, png, page, "stateful")
    text = page.read_text()
    section = docs_section.extract(text, "bench-stateful")
    assert section is not None and "## Stateful queries" in section and "make bench-stateful" in section
    assert text.startswith(main.rstrip("\n")), "the main table stays as it was"
