"""`accelerator bench` options that change the cluster: --flink-config pairs and --jar."""

import subprocess
import sys

import pytest

from accelerator import cli


def test_flink_config_pairs_keep_everything_after_the_first_equals_sign():
    pairs = ["env.java.opts.taskmanager=-XX:StartFlightRecording=filename=/tmp/tm.jfr,settings=profile",
             "taskmanager.memory.process.size=4g"]
    assert cli._key_values(pairs) == {
        "env.java.opts.taskmanager": "-XX:StartFlightRecording=filename=/tmp/tm.jfr,settings=profile",
        "taskmanager.memory.process.size": "4g"}


@pytest.mark.parametrize("pair", ["env.java.opts.taskmanager", "=value"])
def test_a_flink_config_pair_without_key_and_value_stops_before_anything_starts(pair):
    result = subprocess.run([sys.executable, "-m", "accelerator", "bench", "--events", "1", "--flink-config", pair],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "expected KEY=VALUE" in result.stderr
