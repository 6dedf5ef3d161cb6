"""A real deployment as docs/deploy.md describes it, on this machine.

The wheel `make dist` builds (kept under .cache/dist/ per source digest) is installed into a new
venv that cannot see this checkout (its Python runs outside the repository, without PYTHONPATH);
a fresh copy of the stock Flink distribution gets the jar from that venv's `accelerator install-jar`
and a config.yaml with `accelerator.enabled: true` and the venv's interpreter; `conf/workers`
names localhost twice, so the distribution's own `bin/start-cluster.sh` starts two TaskManagers
(the stock scripts start local workers without ssh). `bin/sql-client.sh -f` submits a json
Kafka -> Kafka job at parallelism 2 over a 2-partition topic, once with the flag switched off for
that job (stock) and once as configured (accelerated): both TaskManagers must run a subtask of the
accelerated operator through a sidecar of the new venv, the sink topics must hold the same
messages, and after `bin/stop-cluster.sh` no process of the venv may be left.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.error
from pathlib import Path

import pytest
import yaml

from accelerator import __version__, flink_lines
from accelerator.testing import locations, package, processes, sidecars, sql
from accelerator.testing.flink import FlinkCluster, flatten
from accelerator.testing.kafka import Record

pytestmark = pytest.mark.services

BIDS = """
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
"""
JOB = """
CREATE TABLE out_${name} (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_${name} SELECT auction, bidder, price * 100, UPPER(channel), url FROM bid WHERE MOD(bidder, 3) <> 0;
"""
#: One sql-client.sh run, two jobs: the same INSERT with the flag switched off for it (stock), then
#: with the flag as config.yaml sets it. The second job waits for the first one's slots.
SCRIPT = ("SET 'accelerator.enabled' = 'false';\n" + BIDS + JOB.replace("${name}", "stock").replace("${sink}", "${stock}")
          + "RESET 'accelerator.enabled';\n" + JOB.replace("${name}", "accelerated").replace("${sink}", "${accelerated}"))
ACCELERATED = "Accelerated["
MESSAGES = 4000
SIDECAR_READY = re.compile(r"Python sidecar pid (\d+) ready in \d+ ms: accelerator (\S+), protocol \d+, "
                           r"accelerator\.python\.executable=(\S+)")


def bids(count: int = MESSAGES) -> list[Record]:
    """Bids as JSON, nulls and unicode mixed in, alternating between the topic's two partitions."""
    rng = random.Random(20261205)
    out = []
    for i in range(count):
        bid = {"auction": rng.choice([rng.randrange(1000, 1500), None]), "bidder": rng.randrange(1000, 3000),
               "price": rng.randrange(1, 10_000_000), "channel": rng.choice(["Apple", "Google", "ünïcode ✓", None]),
               "url": f"https://www.nexmark.com/item.htm?query={i}",
               "dateTime": f"2026-01-01 00:{i // 60 % 60:02d}:{i % 60:02d}.{rng.randrange(1000):03d}",
               "extra": "x" * rng.randrange(0, 20)}
        out.append(Record(value=json.dumps(bid, ensure_ascii=rng.random() < 0.5).encode(), partition=i % 2))
    return out


def outside_env() -> dict[str, str]:
    """This process's environment without what would let a Python or Flink find this checkout."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith("FLINK_")}


def run(cmd: list, cwd: Path, timeout: float = 300) -> str:
    result = subprocess.run([str(c) for c in cmd], cwd=cwd, env=outside_env(), capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result.stdout


def processes_of(venv: Path) -> list[int]:
    """Processes whose command line runs something of `venv` (the sidecars and fork servers)."""
    marker = str(venv) + "/"
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def deployment(request, tmp_path_factory):
    """(venv, Flink home, the python install-jar printed): wheel installed, jar placed, nothing started."""
    wheel, jars = package.cached_build()
    root = tmp_path_factory.mktemp("deploy")
    assert locations.REPO_ROOT not in root.parents
    venv = root / "venv"
    base_python = Path(sys._base_executable)  # the interpreter this test's venv was made from, not the venv
    run([base_python, "-m", "venv", venv], cwd=root)
    run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-compile", wheel], cwd=root, timeout=600)
    probe = json.loads(run([venv / "bin" / "python", "-c",
                            "import json, accelerator, accelerator._native as n;"
                            "print(json.dumps([accelerator.__file__, accelerator.__version__, n.__file__]))"],
                           cwd=root))
    module, version, native = probe
    assert Path(module).is_relative_to(venv) and Path(native).is_relative_to(venv), probe
    assert version == __version__

    home = root / "flink"
    shutil.copytree(locations.require(locations.flink_home(), "Flink distribution"), home, symlinks=True)
    assert not [p for p in (home / "lib").iterdir() if re.match(r"flink-accelerator-\d", p.name)]
    printed = run([venv / "bin" / "accelerator", "install-jar", "--flink-home", home], cwd=root)
    (python,) = re.findall(r"accelerator\.python\.executable: (\S+)", printed)
    assert Path(python) == venv / "bin" / "python", printed
    (jar,) = [j for j in jars if j.name == flink_lines.jar_name(locations.flink_version())]
    placed = home / "lib" / jar.name
    assert placed.read_bytes() == jar.read_bytes(), "install-jar must place the jar the wheel was built with"

    # The installed `accelerator explain` plans against that distribution (a relative --flink-home).
    job = root / "job.sql"
    script = "SET 'accelerator.enabled' = 'true';\n" + BIDS + JOB.replace("${name}", "x")
    job.write_text(sql.render(script, {"bootstrap": "localhost:9", "source": "s", "sink": "t"}))
    explained = run([venv / "bin" / "accelerator", "explain", job.name, "--flink-home", home.name], cwd=root)
    assert "Every part of this plan runs accelerated." in explained, explained
    yield venv, home, python
    if request.session.testsfailed == 0:  # else its logs stay (flink/log/), in pytest's kept temporary folders
        shutil.rmtree(root, ignore_errors=True)


def configure(home: Path, python: str, pid_dir: Path) -> int:
    """config.yaml as a user edits it for this deployment (ports free on this machine); the REST port."""
    config = home / "conf" / "config.yaml"
    settings = flatten(yaml.safe_load(config.read_text()) or {})
    rest_port = processes.free_port()
    settings.update({
        "accelerator.enabled": True,
        "accelerator.python.executable": python,
        "taskmanager.numberOfTaskSlots": 1,  # two TaskManagers, one subtask each
        "parallelism.default": 2,
        "rest.port": rest_port,
        "rest.bind-address": "localhost",
        "jobmanager.rpc.port": processes.free_port(),
        "env.pid.dir": str(pid_dir),
    })
    config.write_text(yaml.safe_dump(settings, default_flow_style=False, sort_keys=True, width=1 << 30))
    (home / "conf" / "masters").write_text(f"localhost:{rest_port}\n")
    (home / "conf" / "workers").write_text("localhost\nlocalhost\n")
    return rest_port


def wait_ready(cluster: FlinkCluster, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            overview = cluster.rest("/overview")
            if overview.get("taskmanagers") == 2 and overview.get("slots-total") == 2:
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        assert time.monotonic() < deadline, f"the cluster is not up after {timeout_s}s (logs in {cluster.log_dir})"
        time.sleep(0.5)


def taskmanager_pids(cluster: FlinkCluster) -> list[int]:
    return [p for p in cluster.daemon_pids()
            if "TaskManagerRunner" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]


def accelerated_subtasks(cluster: FlinkCluster, job_id: str) -> dict[int, tuple[str, int]]:
    """subtask index -> (its TaskManager's id, Kafka messages it sent through its sidecar: the
    operator's accumulator accelerator.sidecarRecordsIn.<segment>)."""
    (vertex,) = [v for v in cluster.rest(f"/jobs/{job_id}")["vertices"] if ACCELERATED in v["name"]]
    path = f"/jobs/{job_id}/vertices/{vertex['id']}"
    where = {s["subtask"]: s["taskmanager-id"] for s in cluster.rest(path)["subtasks"]}
    sent = {}
    for subtask in cluster.rest(path + "/subtasks/accumulators")["subtasks"]:
        counts = [int(a["value"]) for a in subtask["user-accumulators"]
                  if a["name"].startswith("accelerator.sidecarRecordsIn.")]
        sent[subtask["subtask"]] = sum(counts)
    return {index: (where[index], sent.get(index, 0)) for index in where}


def test_wheel_and_install_jar_on_a_standalone_cluster_with_two_taskmanagers(deployment, kafka_broker, new_topic):
    venv, home, python = deployment
    pid_dir = home.parent / "pids"
    pid_dir.mkdir(exist_ok=True)
    rest_port = configure(home, python, pid_dir)
    source = new_topic("deploy-bids", partitions=2)
    kafka_broker.produce(source, bids())

    regions_before = sidecars.regions()
    run([home / "bin" / "start-cluster.sh"], cwd=home)
    cluster = FlinkCluster.reattach({"workdir": str(home.parent), "rest_port": rest_port, "taskmanagers": 2})
    stopped = False
    try:
        wait_ready(cluster)
        taskmanagers = taskmanager_pids(cluster)
        assert len(taskmanagers) == 2, cluster.daemon_pids()

        sinks = {name: new_topic(f"deploy-out-{name}", partitions=2) for name in ("stock", "accelerated")}
        stock_job, accelerated_job = cluster.run_sql(SCRIPT, {"bootstrap": kafka_broker.bootstrap, "source": source,
                                                               **sinks})
        jobs = {"stock": stock_job, "accelerated": accelerated_job}
        outputs = {name: sorted(r.value for r in kafka_broker.consume(sink)) for name, sink in sinks.items()}

        names = {k: [v["name"] for v in cluster.rest(f"/jobs/{j}")["vertices"]] for k, j in jobs.items()}
        assert not any(ACCELERATED in n for n in names["stock"]), names["stock"]
        assert any(ACCELERATED in n for n in names["accelerated"]), names["accelerated"]
        assert 0 < len(outputs["stock"]) < MESSAGES, "the filter must keep some messages and drop some"
        assert outputs["accelerated"] == outputs["stock"]

        # Each TaskManager ran one subtask of the accelerated operator, and both carried messages.
        subtasks = accelerated_subtasks(cluster, jobs["accelerated"])
        assert sorted(subtasks) == [0, 1], subtasks
        assert len({tm for tm, _ in subtasks.values()}) == 2, subtasks
        assert all(sent > 0 for _, sent in subtasks.values()) and sum(s for _, s in subtasks.values()) == MESSAGES

        # ... through a sidecar of the installed package: each TaskManager's log has its start line,
        # and its fork server (still running for the next job) is the new venv's interpreter.
        logs = sorted(cluster.log_dir.glob("flink-*-taskexecutor-*.log"))
        assert len(logs) == 2, sorted(p.name for p in cluster.log_dir.iterdir())
        for log in logs:
            ready = SIDECAR_READY.findall(log.read_text(errors="replace"))
            assert ready, f"{log.name} has no sidecar start line"
            assert {(version, executable) for _, version, executable in ready} == {(__version__, python)}, ready
        for tm in taskmanagers:
            (server,) = sidecars.fork_server_pids([tm])
            command = Path(f"/proc/{server}/cmdline").read_bytes().split(b"\0")
            assert command[0].decode() == python, command

        run([home / "bin" / "stop-cluster.sh"], cwd=home, timeout=120)
        stopped = True
        deadline = time.monotonic() + 30
        while cluster.daemon_pids() or processes_of(venv):
            assert time.monotonic() < deadline, \
                f"still running after stop-cluster.sh: JVMs {cluster.daemon_pids()}, venv processes {processes_of(venv)}"
            time.sleep(0.2)
        left = (sidecars.regions() - regions_before) & (sidecars.regions_of(taskmanagers) | sidecars.orphaned_regions())
        assert left == set(), f"shared-memory regions left behind: {left}"
    finally:
        if not stopped:
            subprocess.run([str(home / "bin" / "stop-cluster.sh")], cwd=home, env=outside_env(),
                           capture_output=True, timeout=120)
        processes.stop_pids(cluster.daemon_pids() + processes_of(venv))

