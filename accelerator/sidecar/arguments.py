"""The sidecar's command line, shared by `python -m accelerator.sidecar` and `accelerator sidecar`;
kept apart from the server so building the CLI does not import pyarrow or py4j."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, required=True, help="the JVM's py4j GatewayServer port on loopback")
    parser.add_argument("--token-file", required=True, metavar="PATH",
                        help="file holding the py4j auth token; '-' reads it from stdin")
    parser.add_argument("--jvm-pid", type=int, required=True, help="exit when this process is gone")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
