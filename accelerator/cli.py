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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
