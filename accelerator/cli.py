"""The `accelerator` command."""

from __future__ import annotations

import argparse
import sys

from accelerator import FLINK_VERSION, __version__


def _env(args: argparse.Namespace) -> int:
    from accelerator import env

    if args.action == "up":
        state = env.up(taskmanagers=args.taskmanagers, with_accelerator=args.with_accelerator)
        print(f"Kafka bootstrap: {state['bootstrap']}")
        print(f"Flink web UI:    {state['web_ui']}")
        print(f"Flink home:      {state['flink_home']}  (bin/sql-client.sh to run SQL)")
        print("Stop with: accelerator env down")
    elif args.action == "down":
        state = env.down()
        print("stopped" if state else "nothing was up")
    else:
        state = env.status()
        if state is None:
            print("nothing is up")
        else:
            print(f"Kafka {state['bootstrap']} ({'running' if state['kafka_running'] else 'NOT running'}); "
                  f"Flink {state['web_ui']} ({state['flink_jvms']} JVMs)")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from accelerator import demo

    return demo.main(events=args.events)


def _compat(args: argparse.Namespace) -> int:
    from pathlib import Path

    from accelerator.compat import runner
    from accelerator.testing.locations import REPO_ROOT

    case_dirs = [Path(d) for d in args.cases] or [REPO_ROOT / "flink-compat-tests" / "cases"]
    return runner.main(case_dirs, args.filter, Path(args.report) if args.report else None,
                       parallelism=args.parallelism, workers=args.workers,
                       summary=Path(args.summary) if args.summary else None,
                       other_reports=[Path(r) for r in args.other_reports],
                       flink_config=_key_values(args.flink_config))


def _explain(args: argparse.Namespace) -> int:
    from accelerator import explain

    return explain.main(args.sql_file, flink_home=args.flink_home, jar=args.jar)


def _bench(args: argparse.Namespace) -> int:
    import shlex
    from pathlib import Path

    from accelerator.bench import runner

    command = args.command_line or "accelerator bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    return runner.main(args.events, [q for q in args.queries.split(",") if q], args.parallelism, args.format,
                       args.rounds, Path(args.report) if args.report else None,
                       Path(args.docs) if args.docs else None, command, warm_up=not args.no_warm_up,
                       jar=Path(args.jar) if args.jar else None, flink_config=_key_values(args.flink_config),
                       section=args.section, state_backends=tuple(b for b in args.state_backends.split(",") if b))


def _key_values(pairs: list[str]) -> dict[str, str]:
    """KEY=VALUE arguments as a dict; a pair without '=' is an argparse error."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--flink-config {pair!r}: expected KEY=VALUE, e.g. "
                             "env.java.opts.taskmanager=-XX:StartFlightRecording=filename=/tmp/tm.jfr")
        out[key] = value
    return out


def _bench_formats(args: argparse.Namespace) -> int:
    import shlex
    from pathlib import Path

    from accelerator.bench.formats import runner

    command = args.command_line or "accelerator bench-formats " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    return runner.main(args.rows, args.batch, args.rounds, [f for f in args.formats.split(",") if f],
                       Path(args.report) if args.report else None, Path(args.docs) if args.docs else None,
                       command, warm_up=args.warm_up)


def _install_jar(args: argparse.Namespace) -> int:
    from accelerator import install

    return install.main(args.flink_home)


def _sidecar(args: argparse.Namespace) -> int:
    from accelerator.sidecar import server

    return server.run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="accelerator", description=__doc__)
    parser.add_argument("--version", action="version",
                        version=f"flink-accelerator {__version__} (Flink {FLINK_VERSION})")
    commands = parser.add_subparsers(dest="command", required=True)

    env = commands.add_parser("env", help="start/stop a local Kafka broker and Flink cluster")
    env.add_argument("action", choices=["up", "down", "status"])
    env.add_argument("--taskmanagers", type=int, default=1)
    env.add_argument("--with-accelerator", action="store_true",
                     help="drop the accelerator jar into lib/ and set accelerator.enabled: true")
    env.set_defaults(run=_env)

    demo = commands.add_parser("demo", help="the main job: Nexmark-style bids through Kafka and Flink")
    demo.add_argument("--events", type=int, default=200_000)
    demo.set_defaults(run=_demo)

    explain = commands.add_parser("explain", help="print a SQL job's plan, each operator marked accelerated"
                                                  " or stock with the reason, without running it")
    explain.add_argument("sql_file", metavar="JOB.sql")
    explain.add_argument("--flink-home", help="stock Flink 2.2.1 distribution (default: $FLINK_HOME, else"
                                              " this checkout's .cache)")
    explain.add_argument("--jar", help="flink-accelerator jar (default: the one in the distribution's lib/,"
                                       " else this checkout's build)")
    explain.set_defaults(run=_explain)

    compat = commands.add_parser("compat", help="the compatibility suite: stock vs accelerated Flink")
    compat.add_argument("--cases", nargs="*", default=[], metavar="DIR",
                        help="folders holding case folders (default: flink-compat-tests/cases)")
    compat.add_argument("--filter", default="*", metavar="GLOB", help="case names to run")
    compat.add_argument("--report", metavar="FILE.json", help="write one JSON object per case")
    compat.add_argument("--summary", metavar="FILE.md", help="write the Markdown table of docs/compatibility.md")
    compat.add_argument("--other-reports", nargs="*", default=[], metavar="FILE.json",
                        help="reports of runs on other Flink releases: one summary row each in --summary")
    compat.add_argument("--parallelism", type=int, default=1, help="Flink parallelism of each job")
    compat.add_argument("--workers", type=int, default=2, help="cases run at the same time")
    compat.add_argument("--flink-config", metavar="KEY=VALUE", action="append", default=[],
                        help="added to the cluster's Flink configuration (repeatable), e.g. an accelerator option"
                             " every case runs with unless its script SETs it")
    compat.set_defaults(run=_compat)

    from accelerator.bench.queries import DEFAULT as BENCH_QUERIES
    from accelerator.bench.report import SECTIONS as BENCH_SECTIONS

    bench = commands.add_parser("bench", help="Nexmark on Kafka: stock vs accelerated Flink, side by side")
    bench.add_argument("--events", type=int, default=2_000_000, help="events in the source topic")
    bench.add_argument("--queries", default=",".join(BENCH_QUERIES), help="comma-separated, e.g. q0,q1")
    bench.add_argument("--parallelism", type=int, default=1, help="job parallelism = topic partitions")
    bench.add_argument("--format", default="json", choices=["json", "avro"], help="the source topic's format")
    bench.add_argument("--rounds", type=int, default=5,
                       help="rounds; each runs every job once (floors, stock, accelerated)")
    bench.add_argument("--report", metavar="FILE.json",
                       help="default benchmarks/results/<date>-<host>.json; .md and .png go beside it")
    bench.add_argument("--docs", metavar="FILE.md", help="also write this performance page (docs/performance.md)")
    bench.add_argument("--no-warm-up", action="store_true", help="skip the unmeasured run of each query")
    bench.add_argument("--jar", help="accelerator jar to put in the cluster's lib/ (default: the built one), to"
                                     " compare two builds on the same machine")
    bench.add_argument("--flink-config", metavar="KEY=VALUE", action="append", default=[],
                       help="added to the cluster's Flink configuration (repeatable), e.g. a profiler: "
                            "env.java.opts.taskmanager=-XX:StartFlightRecording=filename=/tmp/tm.jfr")
    bench.add_argument("--section", choices=sorted(BENCH_SECTIONS),
                       help="with --docs, write this section of the page instead of its main table")
    bench.add_argument("--state-backends", default="", metavar="hashmap,rocksdb",
                       help="run each query stock and accelerated on each of these state backends, checkpointed "
                            "every 10 s into exactly-once sinks, the stateful operators on (no floors)")
    bench.add_argument("--command-line", help=argparse.SUPPRESS)  # what the report says produced it
    bench.set_defaults(run=_bench)

    formats = commands.add_parser("bench-formats", help="decode/encode throughput per core: our json and avro"
                                                         " codecs vs Flink's own (de)serializers")
    formats.add_argument("--rows", type=int, default=262_144, help="Nexmark bids (messages) per format")
    formats.add_argument("--batch", type=int, default=65_536, help="messages per timed batch")
    formats.add_argument("--rounds", type=int, default=5, help="measured rounds per side (median reported)")
    formats.add_argument("--warm-up", type=int, default=1, help="unmeasured rounds first, per side")
    formats.add_argument("--formats", default="json,avro", help="comma-separated: json, avro")
    formats.add_argument("--report", metavar="FILE.json",
                         help="default benchmarks/results/<date>-<host>-formats.json")
    formats.add_argument("--docs", metavar="FILE.md",
                         help="also write the formats section of this page (docs/performance.md)")
    formats.add_argument("--command-line", help=argparse.SUPPRESS)  # what the report says produced it
    formats.set_defaults(run=_bench_formats)

    install_jar = commands.add_parser("install-jar", help="copy this package's jar into a supported Flink"
                                      " distribution's lib/ and print the accelerator.python.executable to set")
    install_jar.add_argument("--flink-home", required=True, metavar="DIR",
                             help="the Flink distribution (the folder holding bin/, conf/ and lib/)")
    install_jar.set_defaults(run=_install_jar)

    from accelerator.sidecar.arguments import add_arguments

    sidecar = commands.add_parser("sidecar", help="the sidecar process a Flink operator starts (not for humans)")
    add_arguments(sidecar)
    sidecar.set_defaults(run=_sidecar)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
