"""A benchmark report as JSON (everything measured), a Markdown table and a PNG chart."""

from __future__ import annotations

import json
import os
from pathlib import Path

from accelerator.bench import docs_section

#: The targets: stateless queries that must reach 2x stock events per CPU-second, stateful
#: queries (accelerated up to their first stateful operator) 1.2x, no partially accelerated query
#: below stock, and the floor bound on q0's accelerated time.
EFFICIENCY_TARGETS = ("q0", "q1", "q2", "q21", "q22")
EFFICIENCY_TARGET = 2.0
PARTIAL_TARGETS = ("q5", "q7", "q8", "q11")
PARTIAL_TARGET = 1.2
PARTIAL_FLOOR = 1.0
FLOOR_TARGET = ("q0", 1.5)
NOTE_CHARS = 300


def _num(value, digits: int = 2, suffix: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, int):
        return f"{value:,}{suffix}"
    if abs(value) >= 1000:
        return f"{value:,.0f}{suffix}"
    return f"{value:.{digits}f}{suffix}"


def markdown(report: dict) -> str:
    lines = [
        f"{report['events']:,} events, format {report['format']}, parallelism {report['parallelism']}, "
        f"median of {report['rounds']} rounds; {report['host']}, {report['date']} UTC.",
        "",
        "| query | kind | runs as | stock ev/s | accelerated ev/s | ratio | stock CPU-s/M | accelerated CPU-s/M "
        "| ev per CPU-s ratio | accelerated time / floor | peak RSS MB stock / acc. | output msgs |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for source, floor in report["floors"].items():
        name = "floor" if source == "nexmark" else f"floor@{source}"
        lines.append(f"| {name} (raw → raw) | floor | stock | {_num(floor.get('events_per_s'))} | | | "
                     f"{_num(floor.get('cpu_s_per_m'))} | | | 1.00 | {_num(floor.get('peak_rss_mb'), 0)} | "
                     f"{_num(floor.get('output_messages'))} |")
    for q in report["queries"]:
        s, a = q["stock"], q["accelerated"]
        lines.append(
            f"| {q['query']} | {q['kind']} | {q['acceleration']} | {_num(s.get('events_per_s'))} | "
            f"{_num(a.get('events_per_s'))} | {_num(q['throughput_ratio'])} | {_num(s.get('cpu_s_per_m'))} | "
            f"{_num(a.get('cpu_s_per_m'))} | {_num(q['cpu_efficiency_ratio'])} | "
            f"{_num(q['accelerated_time_vs_floor'])} | {_num(s.get('peak_rss_mb'), 0)} / "
            f"{_num(a.get('peak_rss_mb'), 0)} | {_num(s.get('output_messages'))} |")
    lines += ["", "CPU-s/M: " + report["cpu_scope"] + ", per million source messages. ev/s: "
              + report["throughput"] + ". Outputs of every accelerated run were byte-identical to "
              "stock Flink's (compared per round; the benchmark stops otherwise). `q@bid`: the query over a "
              "flat topic of the bids alone (the table shape the accelerator handles today); its floor is "
              "`floor@bid`.", ""]
    lines += targets(report)
    return "\n".join(lines) + "\n"


def targets(report: dict) -> list[str]:
    """One line per target: met or not, and why not when the report can tell."""
    out = [f"Targets (accelerated >= {EFFICIENCY_TARGET:g}x stock events per CPU-second for "
           f"{', '.join(EFFICIENCY_TARGETS)}, >= {PARTIAL_TARGET:g}x for {', '.join(PARTIAL_TARGETS)}, "
           f"no partially accelerated query below {PARTIAL_FLOOR:g}x; q0 within 1.5x of the floor):", ""]
    for q in report["queries"]:
        name = q["query"].partition("@")[0]
        if name in EFFICIENCY_TARGETS:
            target = EFFICIENCY_TARGET
        elif name in PARTIAL_TARGETS:
            target = PARTIAL_TARGET
        elif q["acceleration"] == "partial":
            target = PARTIAL_FLOOR
        else:
            continue
        ratio = q["cpu_efficiency_ratio"]
        if q["acceleration"] == "stock":
            out.append(f"- {q['query']}: not measured ({_num(ratio)}x is two stock runs) — {why(q)}")
            continue
        met = ratio is not None and ratio >= target
        line = (f"- {q['query']}: {_num(ratio)}x events per CPU-second, {'met' if met else 'missed'} "
                f"(target >= {target:g}x)")
        if not met:
            line += " — " + why(q)
        out.append(line)
    name, bound = FLOOR_TARGET
    for q in report["queries"]:
        if q["query"].partition("@")[0] == name:
            value = q["accelerated_time_vs_floor"]
            if q["acceleration"] == "stock":
                out.append(f"- {q['query']} accelerated time / floor: not measured (runs stock)")
                continue
            met = value is not None and value <= bound
            out.append(f"- {q['query']} accelerated time / floor: {_num(value)} "
                       f"({'met' if met else 'missed'}, target <= {bound})")
    return out


def why(q: dict) -> str:
    """Where the accelerated run's time goes, as far as the measurements tell."""
    if q["acceleration"] == "stock":
        notes = "; ".join(q["planner_notes"]) or "no planner verdict logged"
        if len(notes) > NOTE_CHARS:
            notes = notes[:NOTE_CHARS] + " … (all of it in the JSON report)"
        return f"runs stock Flink, nothing accelerated (planner: {notes})"
    a = q["accelerated"]
    sidecar = a.get("sidecar_cpu_s_per_m") or 0.0
    jvm = (a.get("cpu_s_per_m") or 0.0) - sidecar
    jvm_work = "Kafka I/O, batching, transport" + (", the stock operators" if q["acceleration"] == "partial" else "")
    return (f"{q['acceleration']}; of {_num(a.get('cpu_s_per_m'))} CPU-s/M, the TaskManager JVM "
            f"({jvm_work}) {_num(jvm)}, the Python sidecars (decode, plan, encode) {_num(sidecar)}")


def chart(report: dict, path: Path) -> None:
    """Per query: accelerated/stock throughput and events-per-CPU-second ratios, and where the
    floor (raw I/O alone) would put a query that cost nothing but I/O."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["queries"]
    names = [q["query"] for q in rows]
    throughput = [q["throughput_ratio"] or 0 for q in rows]
    efficiency = [q["cpu_efficiency_ratio"] or 0 for q in rows]
    ceiling = []
    for q in rows:
        floor_ev = report["floors"][q["source"]].get("events_per_s")
        stock_ev = q["stock"].get("events_per_s")
        ceiling.append(floor_ev / stock_ev if floor_ev and stock_ev else 0)
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(rows) + 2), 4.5), dpi=110)
    ax.bar([i - 0.2 for i in x], throughput, width=0.4, label="throughput, accelerated / stock")
    ax.bar([i + 0.2 for i in x], efficiency, width=0.4, label="events per CPU-second, accelerated / stock")
    ax.scatter(list(x), ceiling, marker="_", s=600, color="black", zorder=3,
               label="floor: raw I/O throughput / stock")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.axhline(EFFICIENCY_TARGET, color="green", linewidth=0.8, linestyle="--", label="target 2x")
    ax.set_xticks(list(x), [f"{n}\n({q['acceleration']})" for n, q in zip(names, rows)], fontsize=8)
    ax.set_ylabel("ratio (higher is better)")
    ax.set_title(f"Nexmark on Kafka, {report['format']}, {report['events']:,} events, "
                 f"p={report['parallelism']} ({report['host']}, {report['date']})", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


def write(report: dict, json_path: Path) -> tuple[Path, Path, Path]:
    """JSON at `json_path`, the Markdown table and the chart beside it (same name, .md / .png)."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    md_path, png_path = json_path.with_suffix(".md"), json_path.with_suffix(".png")
    md_path.write_text(markdown(report))
    chart(report, png_path)
    return json_path, md_path, png_path


def _run_line(report: dict) -> str:
    return (f"Run on {report['host']} ({report['cpus']} CPUs) on {report['date']} UTC, "
            f"{report['wall_seconds']:.0f} s wall time, load average {report['load_average_start'][0]} at the start and "
            f"{report['load_average_end'][0]} at the end (other work shares the cores). Raw data: "
            f"`{report['json_path']}`.\n\n")


def _chart_link(png_path: Path, docs_path: Path) -> str:
    return Path(os.path.relpath(png_path.resolve(), docs_path.parent.resolve())).as_posix()


#: Sections of docs/performance.md that a run of a subset of the queries writes (`--section`),
#: leaving the page's main table alone: heading and what the rows show.
SECTIONS = {
    "stateful": ("Stateful queries",
                 "The stateful Nexmark queries on the standard table, at parallelism 1: the source, its "
                 "decode and the Calcs before the first stateful operator run accelerated (one rows stage "
                 "per source, decoded once however many operators read it), the windows, aggregates and "
                 "joins stay stock Flink operators fed by Arrow-backed rows (`runs as` partial)."),
}


def parallelism_section(report: dict, md_path: Path, png_path: Path, docs_path: Path) -> None:
    """The section of docs/performance.md for a run at a parallelism other than 1 (the page's main
    table), rewritten by that run alone."""
    p = report["parallelism"]
    _section(report, png_path, docs_path, f"bench-parallelism-{p}", f"Parallelism {p}",
             f"The same method with {p} topic partitions and Flink parallelism {p} (one TaskManager with {p} "
             f"slots, one sidecar per accelerated subtask).", f"parallelism {p}")


def named_section(report: dict, png_path: Path, docs_path: Path, name: str) -> None:
    """The section `name` of `SECTIONS` in docs/performance.md, rewritten by this run alone."""
    heading, intro = SECTIONS[name]
    _section(report, png_path, docs_path, f"bench-{name}", heading, intro, heading.lower())


def _section(report: dict, png_path: Path, docs_path: Path, marker: str, heading: str, intro: str,
             chart: str) -> None:
    body = (f"## {heading}\n\n{intro} Generated by the command below; do not edit by hand.\n\n"
            f"```sh\n{report['command']}\n```\n\n"
            + _run_line(report) + markdown(report).split("\n", 2)[2]
            + f"\n![accelerated / stock per query, {chart}]({_chart_link(png_path, docs_path)})\n")
    docs_section.replace(docs_path, marker, body)


def performance_page(report: dict, md_path: Path, png_path: Path, docs_path: Path) -> None:
    """docs/performance.md: the latest table and chart and the command that produced them."""
    text = (
        "# Performance\n\n"
        "Nexmark on Kafka, stock Flink vs the same job with `accelerator.enabled`, on one machine in "
        "one run. Generated by the command below; do not edit by hand.\n\n"
        f"```sh\n{report['command']}\n```\n\n"
        + _run_line(report) + markdown(report).split("\n", 2)[2]
        + f"\n![accelerated / stock per query]({_chart_link(png_path, docs_path)})\n\n"
        "How to read it: `runs as` is what the job graph showed for the accelerated run "
        "(`Accelerated[...]` operators: accelerated; none: stock). A query that runs stock in both "
        "runs measures noise between two identical runs. The floor is the same topic copied as "
        "`raw` bytes by stock Flink: Kafka I/O that no accelerator removes. See "
        "`benchmarks/README.md` for the method.\n")
    # Other commands' sections of the page (e.g. `accelerator bench-formats`) stay as they were.
    kept = docs_section.sections(docs_path.read_text()) if docs_path.exists() else []
    docs_path.write_text("\n".join([text, *kept]))
