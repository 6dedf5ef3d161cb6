"""`accelerator env up` / `down` as a person uses them: separate processes, nothing left behind."""

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient

from accelerator.testing import processes
from accelerator.testing.flink import FlinkCluster

pytestmark = pytest.mark.services


def _cli(*args, env):
    return subprocess.run([sys.executable, "-m", "accelerator", "env", *args], env=env,
                          capture_output=True, text=True, timeout=300, check=True).stdout


def test_env_up_then_down_leaves_nothing_behind(tmp_path):
    env = {**os.environ, "ACCELERATOR_ENV_STATE": str(tmp_path / "state.json")}
    out = _cli("up", env=env)
    bootstrap = re.search(r"Kafka bootstrap:\s*(\S+)", out).group(1)
    web_ui = re.search(r"Flink web UI:\s*(\S+)", out).group(1)
    state = json.loads((tmp_path / "state.json").read_text())
    try:
        with urllib.request.urlopen(web_ui + "/overview", timeout=10) as r:
            assert json.loads(r.read())["taskmanagers"] == 1
        assert AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10).brokers
        flink_pids = FlinkCluster.reattach(state["flink"]).daemon_pids()
        assert len(flink_pids) == 2  # JobManager and TaskManager
        assert "Flink" in _cli("status", env=env)
    finally:
        _cli("down", env=env)

    assert not processes.alive(state["kafka"]["pid"])
    assert not any(processes.alive(p) for p in flink_pids)
    assert not Path(state["kafka"]["workdir"]).exists()
    assert not Path(state["flink"]["workdir"]).exists()
    assert not (tmp_path / "state.json").exists()
    assert "nothing is up" in _cli("status", env=env)
