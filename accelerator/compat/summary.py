"""docs/compatibility.md: the suite's current results as a table per area, made from a run."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from accelerator.compat.runner import NOT_APPLICABLE, CaseResult

#: Area of a case, by name prefix; the first match wins.
AREAS = (("fn_", "built-in functions"), ("type_", "types through formats"), ("nexmark_", "Nexmark"),
         ("bad_input_", "bad input"), ("json_fail", "bad input"), ("cast_from_", "CAST matrix"),
         ("try_cast_", "CAST matrix"))
#: Format, option, metadata, key and time-zone cases, by name prefix.
FORMAT_PREFIXES = ("json_", "csv_", "avro_", "raw_", "key_", "metadata_", "time_zone_")
#: Joins, windows, aggregations, deduplication and ranking, by a word in the name (operators with
#: state: stock Flink's, or the sidecar's where the case turns its option on).
STATEFUL_WORDS = ("join", "window", "tumble", "hop", "session", "cumulate", "dedup", "aggregate", "group_agg",
                  "distinct", "top_n", "topn")
STATEFUL = "stateful shapes"
#: The count columns of every table (`_counts`).
COLUMNS = "cases | passed | not applicable | identical | accelerated | partial | stock"
OTHER = "formats, options, metadata, time zones"


def area_of(result: CaseResult) -> str:
    for prefix, area in AREAS:
        if result.name.startswith(prefix):
            return area
    if result.name.startswith(FORMAT_PREFIXES):
        return OTHER
    return STATEFUL if any(word in result.name for word in STATEFUL_WORDS) else OTHER


def render(results: list[CaseResult], command: str, flink_version: str,
           other_releases: list[tuple[str, list[CaseResult]]] = ()) -> str:
    """The page: `results` (a run on Flink `flink_version`) per area, then one summary row per
    release of `other_releases` (release, its run's results), with any case that failed there."""
    by_area: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        by_area[area_of(r)].append(r)
    lines = [
        "# Compatibility",
        "",
        f"Every case runs the same SQL on stock Flink {flink_version} and with the accelerator enabled, against a",
        "real broker, and compares what reached Kafka (see `flink-compat-tests/README.md`).",
        f"Generated on {date.today().isoformat()} by `{command}`.",
        "",
        f"| area | {COLUMNS} |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [f"| {area} | {_counts(by_area[area])} |" for area in sorted(by_area)]
    lines.append(f"| **all** | {_counts(results)} |")
    lines += _failing(results, "## Failing cases")
    lines += _not_applicable(results, f"## Not applicable on Flink {flink_version}")
    if other_releases:
        lines += ["", "## Other Flink releases", "",
                  "The same suite and the same jar on the stock distribution of each supported release",
                  "(`make compat-versions`; reports in `flink-compat-tests/results/`).", "",
                  f"| Flink | {COLUMNS} |",
                  "|---|---|---|---|---|---|---|---|",
                  f"| {flink_version} (above) | {_counts(results)} |"]
        lines += [f"| {release} | {_counts(rows)} |" for release, rows in other_releases]
        for release, rows in other_releases:
            lines += _failing(rows, f"### Failing cases on Flink {release}")
            lines += _not_applicable(rows, f"### Not applicable on Flink {release}")
    lines += _fallback_section(results)
    return "\n".join(lines) + "\n"


def _counts(rows: list[CaseResult]) -> str:
    """The COLUMNS' cells; a case that does not apply to the release counts in none but cases and its own."""
    not_applicable = sum(r.status == NOT_APPLICABLE for r in rows)
    return " | ".join(str(n) for n in (
        len(rows), sum(r.passed for r in rows) - not_applicable, not_applicable,
        sum(r.status == "identical" for r in rows),
        sum(r.acceleration == "accelerated" for r in rows), sum(r.acceleration == "partial" for r in rows),
        sum(r.acceleration == "stock" for r in rows)))


def _failing(results: list[CaseResult], heading: str) -> list[str]:
    failed = [r for r in results if not r.passed]
    if not failed:
        return []
    return ["", heading, ""] + [f"- `{r.name}`: {r.status}: {r.detail.splitlines()[0] if r.detail else ''}"
                                for r in failed]


def _not_applicable(results: list[CaseResult], heading: str) -> list[str]:
    """Cases the release's stock Flink rejects, each with its case.yaml reason and stock's error."""
    rows = [r for r in results if r.status == NOT_APPLICABLE]
    if not rows:
        return []
    return ["", heading, ""] + [f"- `{r.name}`: {r.detail}" for r in rows]


def _fallback_section(results: list[CaseResult]) -> list[str]:
    """Per case that keeps any part on stock Flink, the reasons `accelerator explain` gives."""
    with_reasons = sorted((r for r in results if r.fallback_reasons), key=lambda r: r.name)
    if not with_reasons:
        return []
    lines = ["", "## Why parts stay on stock Flink", "",
             "From `accelerator explain` of each case's SQL (the planner's own reasons).", "",
             "| case | acceleration | stock parts and why |", "|---|---|---|"]
    for r in with_reasons:
        why = "<br>".join(reason.replace("|", "\\|") for reason in r.fallback_reasons)
        lines.append(f"| `{r.name}` | {r.acceleration} | {why} |")
    return lines
