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
#: Issue 18's targets for the stateful operators, events per CPU-second accelerated / stock: the
#: geomean over the rows whose stateful operators all ran accelerated, per state backend, and no
#: such row below the floor.
STATEFUL_TARGETS = {"hashmap": 2.0, "rocksdb": 4.0}
STATEFUL_FLOOR = 1.0
#: How the planner's verdicts on the stateful operators begin (the gateway log's one-liners).
STATEFUL_NOTES = ("window aggregates:", "group aggregates:", "deduplications:", "group window aggregates:",
                  "window joins:")


def _num(value, digits: int = 2, suffix: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, int):
        return f"{value:,}{suffix}"
    if abs(value) >= 1000:
        return f"{value:,.0f}{suffix}"
    return f"{value:.{digits}f}{suffix}"


def _spread(summary: dict, key: str) -> str:
    """`median (min–max)` of a summary's value over the rounds."""
    values = (summary.get("spread") or {}).get(key)
    if not values:
        return "–"
    low, median, high = values
    return f"{_num(median)} ({_num(low)}–{_num(high)})"


#: Records per request above stock's by this factor: the page says batching is part of the gain.
BATCHING_NOTE = 1.2


def _bytes(value) -> str:
    if value is None:
        return "–"
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("kB", 2**10)):
        if value >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value:.0f} B"


def _checkpoint_cell(summary: dict) -> str:
    """`n × last / avg size, last / avg duration` of a summary's checkpoints (median over rounds)."""
    c = summary.get("checkpoints") or {}
    if not c.get("completed"):
        return "none"
    failed = f" ({c['failed']:.0f} failed)" if c.get("failed") else ""
    ms = lambda v: "–" if v is None else f"{v:,.0f} ms"  # noqa: E731
    return (f"{c['completed']:.0f} × {_bytes(c.get('last_state_bytes'))} / {_bytes(c.get('avg_state_bytes'))}, "
            f"{ms(c.get('last_duration_ms'))} / {ms(c.get('avg_duration_ms'))}{failed}")


def geomean(values: list[float]) -> float | None:
    import math

    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def stateful_markdown(report: dict) -> str:
    """The stateful runs (`--state-backends`): one row per query and state backend, then the
    geomeans against the targets and why each partial or failed row is left out of them."""
    lines = [
        f"{report['events']:,} events, format {report['format']}, parallelism {report['parallelism']}, "
        f"{report['rounds']} round(s), state backends {', '.join(report['state_backends'])}: median (min–max) "
        f"over the rounds; {report['host']}, {report['date']} UTC.",
        "",
        "| query | backend | runs as | accelerated operators | stock ev per CPU-s | accelerated ev per CPU-s "
        "| ev per CPU-s ratio | stock ev/s | accelerated ev/s | checkpoints stock: n × last / avg size, last / avg "
        "duration | checkpoints accelerated | output msgs | compared by |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|",
    ]
    for q in report["queries"]:
        s, a = q["stock"], q["accelerated"]
        operators = ", ".join(op for op in q["accelerated_operators"]) or "–"
        lines.append(
            f"| {q['query']} | {q['backend']} | {q['runs_as']} | {operators} | {_spread(s, 'events_per_cpu_s')} | "
            f"{_spread(a, 'events_per_cpu_s')} | {_num(q['cpu_efficiency_ratio'])} | {_num(s.get('events_per_s'))} | "
            f"{_num(a.get('events_per_s'))} | {_checkpoint_cell(s)} | {_checkpoint_cell(a)} | "
            f"{_num(s.get('output_messages'))} | {q['compared_by']} |")
    lines += ["", "CPU-s: " + report["cpu_scope"] + "; ev per CPU-s counts source messages. ev/s: "
              + report["throughput"] + ". Checkpointing: " + report["checkpointing"] + ". Checkpoint sizes and "
              "durations from Flink's REST API (`/jobs/<id>/checkpoints`): the state size and end-to-end "
              "duration of the last completed checkpoint and their average over the job's completed "
              "checkpoints (the last one is taken after the input ended, so it holds the final state). "
              "Each accelerated run's committed output was compared with the stock run's on the same backend: "
              "`digest` = every message's key, value, headers and timestamp type, as a multiset per partition. "
              "q12 counts bids per processing-time window: which window a bid falls in is the wall clock's, and "
              "Flink drops the windows still open when a bounded input ends (processing-time timers do not fire "
              "at the end), so neither rows nor per-bidder totals repeat from run to run; what holds on every run "
              "is checked instead: each bidder's total over the windows that fired is at most its bids in the "
              "input.", ""]
    lines += stateful_targets(report)
    return "\n".join(lines) + "\n"


def stateful_targets(report: dict) -> list[str]:
    """Per state backend: the geomean over the rows whose stateful operators all ran accelerated,
    met or not; each such row below the floor; each row left out, and why."""
    out = [f"Targets (issue 18): events per CPU-second accelerated / stock, geomean over the rows whose "
           f"stateful operators all ran accelerated, >= {STATEFUL_TARGETS['hashmap']:g}x against the hashmap "
           f"backend and >= {STATEFUL_TARGETS['rocksdb']:g}x against RocksDB, none below {STATEFUL_FLOOR:g}x:", ""]
    rows = report["queries"]
    for backend in report["state_backends"]:
        counted = [q for q in rows if q["backend"] == backend and q["runs_as"] == "stateful accelerated"
                   and q["cpu_efficiency_ratio"]]
        value = geomean([q["cpu_efficiency_ratio"] for q in counted])
        target = STATEFUL_TARGETS.get(backend)
        if value is None:
            out.append(f"- {backend}: no row with every stateful operator accelerated: not measured")
            continue
        verdict = "" if target is None else f", {'met' if value >= target else 'not met'} (target >= {target:g}x)"
        out.append(f"- {backend}: geomean {_num(value)}x over {', '.join(q['query'] for q in counted)}{verdict}")
        below = [q for q in counted if q["cpu_efficiency_ratio"] < STATEFUL_FLOOR]
        out += [f"  - {q['query']} on {backend}: {_num(q['cpu_efficiency_ratio'])}x, below {STATEFUL_FLOOR:g}x — "
                f"{why(q)}" for q in below]
    left_out = [q for q in rows if q["runs_as"] != "stateful accelerated"]
    if left_out:
        out += ["", "Left out of the geomeans:", ""]
    for q in left_out:
        if q["failed"]:
            error = q["failed"] if len(q["failed"]) <= NOTE_CHARS else q["failed"][:NOTE_CHARS] + " … (all of it in the JSON report)"
            out.append(f"- {q['query']} on {q['backend']}: the accelerated run failed: {error}")
        else:
            out.append(f"- {q['query']} on {q['backend']}: partial, {_num(q['cpu_efficiency_ratio'])}x — "
                       f"{stock_reason(q)}")
    return out


def stock_reason(q: dict) -> str:
    """Which stateful operators ran stock in a partial row, and the planner's verdicts on them."""
    ops = ", ".join(op.split("[")[0] for op in q["stock_stateful_operators"]) or "no accelerated operator"
    verdicts = [n for n in q["planner_notes"] if n.startswith(STATEFUL_NOTES) and "stays stock" in n]
    text = f"ran stock: {ops}"
    if verdicts:
        joined = "; ".join(verdicts)
        text += " (planner: " + (joined if len(joined) <= NOTE_CHARS else joined[:NOTE_CHARS] + " …") + ")"
    else:
        text += " (the accelerator has no operator for it)"
    return text


def markdown(report: dict) -> str:
    if report.get("state_backends"):
        return stateful_markdown(report)
    lines = [
        f"{report['events']:,} events, format {report['format']}, parallelism {report['parallelism']}, "
        f"{report['rounds']} rounds: median (min–max) over the rounds; {report['host']}, {report['date']} UTC.",
        "",
        "| query | kind | runs as | stock ev/s | accelerated ev/s | stock ev per CPU-s | accelerated ev per CPU-s "
        "| ev per CPU-s ratio | floor ev per CPU-s (read + write) | stock CPU / floor | accelerated CPU / floor "
        "| accelerated time / floor | peak RSS MB stock / acc. | output msgs |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for q in report["queries"]:
        s, a, f = q["stock"], q["accelerated"], q["floor"]
        lines.append(
            f"| {q['query']} | {q['kind']} | {q['acceleration']} | {_num(s.get('events_per_s'))} | "
            f"{_num(a.get('events_per_s'))} | {_spread(s, 'events_per_cpu_s')} | {_spread(a, 'events_per_cpu_s')} | "
            f"{_num(q['cpu_efficiency_ratio'])} | {_spread(f, 'events_per_cpu_s')} | "
            f"{_num(q['stock_cpu_vs_floor'])} | "
            f"{_num(q['accelerated_cpu_vs_floor'])} | {_num(q['accelerated_time_vs_floor'])} | "
            f"{_num(s.get('peak_rss_mb'), 0)} / {_num(a.get('peak_rss_mb'), 0)} | {_num(s.get('output_messages'))} |")
    lines += ["", "| read floor (raw → blackhole) | ev/s | ev per CPU-s | peak RSS MB |", "|---|---:|---:|---:|"]
    for data, floor in report["read_floors"].items():
        lines.append(f"| {data} topic | {_num(floor.get('events_per_s'))} | {_spread(floor, 'events_per_cpu_s')} | "
                     f"{_num(floor.get('peak_rss_mb'), 0)} |")
    lines += ["", "CPU-s: " + report["cpu_scope"] + "; ev per CPU-s counts source messages. ev/s: "
              + report["throughput"] + ". Floor: the read floor of the query's source topic plus the query's "
              "write floor, summed round by round. Outputs of every accelerated run were identical to stock "
              "Flink's in keys, values, headers and timestamp types (compared per round; the benchmark stops "
              "otherwise). `q@bid`: the query over a flat topic of the bids alone (the table shape the "
              "accelerator handles today); `q0@nexmark_no_watermark`: q0 over the standard table without its "
              "WATERMARK.", ""]
    lines += producer_table(report)
    lines += exact_path_lines(report)
    lines += targets(report)
    return "\n".join(lines) + "\n"


def producer_table(report: dict) -> list[str]:
    """The Kafka producer's batching per query (write floor, stock, accelerated), and a note for
    each query whose accelerated run sent markedly more records per request than stock."""
    metrics = ("records-per-request-avg", "batch-size-avg", "request-rate")
    lines = ["Kafka producer of the sink, write floor / stock / accelerated (Flink's `KafkaProducer` "
             "metrics, last reading while the job ran, median over the rounds):", "",
             "| query | records per request | batch size avg (bytes) | requests per s |", "|---|---:|---:|---:|"]
    notes = []
    for q in report["queries"]:
        sides = [(q["floor"].get("write") or {}).get("producer", {}), q["stock"].get("producer", {}),
                 q["accelerated"].get("producer", {})]
        cells = [" / ".join(_num(side.get(m), 1) for side in sides) for m in metrics]
        lines.append(f"| {q['query']} | " + " | ".join(cells) + " |")
        stock, acc = sides[1].get(metrics[0]), sides[2].get(metrics[0])
        if stock and acc and acc >= BATCHING_NOTE * stock:
            notes.append(f"- {q['query']}: the accelerated run's producer sent {acc / stock:.1f}x the records per "
                         f"request of stock's ({_num(acc, 1)} vs {_num(stock, 1)}): part of its gain is fewer, "
                         "larger Kafka requests, not faster operators.")
    return lines + [""] + (notes + [""] if notes else [])


#: The query run both on Flink-written JSON and on reshaped JSON (`nexmark_reshaped`).
RESHAPED = ("q0", "q0@nexmark_reshaped")


def exact_path_lines(report: dict) -> list[str]:
    """The share of source messages the accelerated json decoder read on its exact (slow) path,
    per query where any did, and what reshaped JSON costs against Flink-written JSON."""
    rows = {q["query"]: q for q in report["queries"]}
    shares = [(name, q["accelerated"].get("exact_path_share")) for name, q in rows.items()]
    shares = [(name, share) for name, share in shares if share]
    lines = []
    if shares or all(name in rows for name in RESHAPED):
        lines += ["Source messages the accelerated json decoder left its fast path for the exact one "
                  "(the job accumulators `accelerator.sidecarRecordsExactPath.*`): "
                  + (", ".join(f"{name} {share:.1%}" for name, share in shares) or "none") + ".", ""]
    if all(name in rows for name in RESHAPED):
        plain, reshaped = (rows[name] for name in RESHAPED)
        cost = {side: ratio(reshaped[side].get("cpu_s_per_m"), plain[side].get("cpu_s_per_m"))
                for side in ("stock", "accelerated")}
        lines += [f"Reshaped JSON (fields shuffled, whitespace, escapes; `{RESHAPED[1]}`) costs "
                  f"{_num(cost['accelerated'])}x the CPU per event of Flink-written JSON (`{RESHAPED[0]}`) "
                  f"accelerated, {_num(cost['stock'])}x stock.", ""]
    return lines


def ratio(a, b):
    """a / b, or None when either is missing or zero."""
    return a / b if a and b else None


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
    floor (the query's raw I/O alone) would put a query that cost nothing but I/O."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["queries"]
    names = [q["query"] + (f"@{q['backend']}" if q.get("backend") else "") for q in rows]
    throughput = [q["throughput_ratio"] or 0 for q in rows]
    efficiency = [q["cpu_efficiency_ratio"] or 0 for q in rows]
    ceiling = [1 / q["stock_cpu_vs_floor"] if q.get("stock_cpu_vs_floor") else 0 for q in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(rows) + 2), 4.5), dpi=110)
    ax.bar([i - 0.2 for i in x], throughput, width=0.4, label="throughput, accelerated / stock")
    ax.bar([i + 0.2 for i in x], efficiency, width=0.4, label="events per CPU-second, accelerated / stock")
    ax.scatter(list(x), ceiling, marker="_", s=600, color="black", zorder=3,
               label="floor: read + write I/O alone, events per CPU-second / stock")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    if report.get("state_backends"):
        for backend, target, style in (("hashmap", STATEFUL_TARGETS["hashmap"], "--"),
                                       ("rocksdb", STATEFUL_TARGETS["rocksdb"], ":")):
            ax.axhline(target, color="green", linewidth=0.8, linestyle=style, label=f"target {target:g}x ({backend})")
    else:
        ax.axhline(EFFICIENCY_TARGET, color="green", linewidth=0.8, linestyle="--", label="target 2x")
    ax.set_xticks(list(x), [f"{n}\n({q.get('runs_as') or q['acceleration']})" for n, q in zip(names, rows)],
                  fontsize=8)
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


#: The options that turn the accelerator's stateful operators on, set in every accelerated run of
#: a stateful section.
STATEFUL_OPTIONS = ("accelerator.window-aggregate.enabled", "accelerator.group-aggregate.enabled",
                    "accelerator.deduplicate.enabled", "accelerator.top-n.enabled", "accelerator.join.enabled",
                    "accelerator.group-window-aggregate.enabled",
                    "accelerator.window-join.enabled")

#: Sections of docs/performance.md that a run of a subset of the queries writes (`--section`),
#: leaving the page's main table alone: heading and what the rows show.
SECTIONS = {
    "stateful": ("Stateful queries",
                 "The Nexmark queries whose operators issue 18 covers (q11, q12, q15-q19, and the aggregation "
                 "halves of q4, q5 and q7: their windowed or grouped aggregation without the join) and the "
                 "regular joins of issue 19 (q3, q4, q7, q20) and its window joins (q5, q8), at "
                 "parallelism 1, each run stock and accelerated on the hashmap and on the RocksDB state backend "
                 "in the same run, with the accelerator's stateful operators on ("
                 + ", ".join(f"`{option}`" for option in STATEFUL_OPTIONS)
                 + "). `runs as` is read from the accelerated run's job graph: "
                 "`stateful accelerated` when every stateful operator ran as an `Accelerated[...]` operator, "
                 "`partial` when one ran stock (those rows are not in the geomeans; the reason is listed under "
                 "the targets), `failed` when the accelerated run failed or its output differed."),
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


def method(report: dict) -> str:
    """How the page's numbers were made, for the page itself (benchmarks/README.md has the rest)."""
    return (
        "## Method\n\n"
        f"- **Rounds.** Each of the {report['rounds']} rounds runs every job once. Round 0 runs the read floors, "
        "then per query its stock run, its accelerated run and its write floor; each later round starts at "
        "another point of that list and odd rounds run it backwards, so no job always runs first or after "
        "the same neighbour. Cells give the median and, in brackets, the lowest and highest round.\n"
        "- **Floors.** What a query's Kafka I/O costs with no processing (stock Flink, `raw` format): the "
        "read floor reads the query's source topic through Flink's Kafka source into a `blackhole` sink; "
        "the write floor copies the query's own output topic, as its first stock run wrote it, into a fresh "
        "topic, so it writes the same messages (and reads them once more, which the query does not). "
        "The floor is the two summed round by round; `CPU / floor` near 1 means the query costs little "
        "beyond its I/O. The Kafka broker shares the machine's cores and is counted in neither.\n"
        "- **Watermark.** `q0@nexmark_no_watermark` is q0 over the standard table without its `WATERMARK`: "
        "stock Flink then computes no watermark either, so its ratio is the accelerated operators' own "
        "speed, and the difference to q0's is what leaving out the unused watermark adds.\n"
        "- **Reshaped JSON.** `q0@nexmark_reshaped` is q0 over the same events written as other JSON "
        "producers write them (about half the messages each with shuffled fields, whitespace around every "
        "token, escapes such as `\\/` and `\\u0065`): Flink-written JSON is the decoder's best case. The "
        "page gives the share of messages the accelerated decoder read on its exact (slower) path, from the "
        "job accumulators `accelerator.sidecarRecordsExactPath.*`, and the CPU this input costs against q0's.\n"
        "- **Producer batching.** `records-per-request-avg`, `batch-size-avg` and `request-rate` of the "
        "sink's Kafka producer come from Flink's `KafkaProducer` operator metrics, read over REST every "
        "second while each job runs (`metrics.fetcher.update-interval` 1 s for every job alike).\n"
        "- **Outputs.** Every run's sink topic is digested per partition over each message's key, value, "
        "headers and timestamp type (and its timestamp where the sink writes one; otherwise the producer "
        "stamps the wall clock) and must equal the query's first stock run in every round.\n\n"
        "See `benchmarks/README.md` for the rest of the method.\n")


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
        "runs measures noise between two identical runs.\n\n" + method(report))
    # Other commands' sections of the page (e.g. `accelerator bench-formats`) stay as they were.
    kept = docs_section.sections(docs_path.read_text()) if docs_path.exists() else []
    docs_path.write_text("\n".join([text, *kept]))
