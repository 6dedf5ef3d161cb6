"""`accelerator env up|down|status`: a broker and a Flink cluster left running for a person to use.

The services outlive the command, so what `down` needs to find them is written to
`.cache/env/state.json`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from accelerator.testing import locations, processes
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.kafka import KafkaBroker


def state_file() -> Path:
    """`ACCELERATOR_ENV_STATE` overrides `.cache/env/state.json` (tests use their own)."""
    return Path(os.environ.get("ACCELERATOR_ENV_STATE", locations.cache_dir() / "env" / "state.json"))


def up(taskmanagers: int = 1, with_accelerator: bool = False) -> dict:
    if state_file().exists():
        raise RuntimeError(f"an environment is already up (state in {state_file()}); "
                           "run `accelerator env down` first")
    extra_jars, config = [], {}
    if with_accelerator:
        extra_jars.append(locations.require(locations.shim_jar(), "accelerator jar"))
        config["accelerator.enabled"] = True
        config["accelerator.python.executable"] = sys.executable  # the interpreter with this package
    broker = KafkaBroker(die_with_parent=False).start()
    try:
        cluster = FlinkCluster(taskmanagers=taskmanagers, config=config, extra_jars=extra_jars).start()
    except BaseException:
        broker.stop()
        raise
    state = {"kafka": broker.state(), "flink": cluster.state(),
             "bootstrap": broker.bootstrap, "web_ui": cluster.rest_url,
             "flink_home": str(cluster.home)}
    state_file().parent.mkdir(parents=True, exist_ok=True)
    state_file().write_text(json.dumps(state, indent=2))
    return state


def down() -> dict | None:
    """Stop what `up` started and remove its folders; None when nothing was up."""
    if not state_file().exists():
        return None
    state = json.loads(state_file().read_text())
    FlinkCluster.reattach(state["flink"]).stop()
    KafkaBroker.reattach(state["kafka"]).stop()
    state_file().unlink()
    return state


def status() -> dict | None:
    if not state_file().exists():
        return None
    state = json.loads(state_file().read_text())
    state["kafka_running"] = processes.alive(state["kafka"]["pid"])
    state["flink_jvms"] = len(FlinkCluster.reattach(state["flink"]).daemon_pids())
    return state
