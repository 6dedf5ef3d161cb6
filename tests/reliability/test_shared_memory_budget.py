"""Large messages and a small /dev/shm: what stock Flink runs, the accelerator runs, identically.

A container gets a 64 MB /dev/shm by default (Docker, Kubernetes). At the default settings a batch
is bounded in bytes (`accelerator.batch.max-bytes`), so an accelerated job over 30 KB messages fits
there; the negative control lifts the bound and must fail with an error naming the option. A
message larger than a batch's bound travels alone in a grown region, which shrinks back after it.
The rows job is the pair that once outgrew the 64 MB: a rows stage feeding a stock aggregate whose
upsert-kafka sink is an encode stage, both passing the 10 MB messages; the TaskManager's stages
grow their regions within one shared-memory budget (what /dev/shm has free), taking turns.

Both tests run on one cluster whose TaskManager sees a 64 MB /dev/shm, and submit their jobs
through one SQL gateway (no client JVM started per job).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

import pytest

from accelerator.testing import locations, sidecars
from accelerator.testing.flink import FlinkCluster, JobFailed
from accelerator.testing.gateway import SqlGateway

pytestmark = pytest.mark.services

SHM_MB = 64
#: Runs start-cluster.sh (its arguments) in a private mount namespace whose /dev/shm is a 64 MB
#: tmpfs, so the TaskManager and its sidecars see only that (root, as in CI and in containers).
SMALL_SHM = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
             f'mount -t tmpfs -o size={SHM_MB}m flink-accelerator-test /dev/shm && exec "$0" "$@"']
LARGE_MESSAGES = int(os.environ.get("ACCELERATOR_LARGE_MESSAGES", "12"))  # `make soak`: 300

SOURCE = """
CREATE TABLE src (id BIGINT, name STRING, payload STRING, score DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
"""
#: A whole segment (decode, Calc, encode in the sidecar), and a rows stage feeding a stock aggregate
#: whose upsert-kafka sink is an encode stage.
JOBS = {
    "segment": """
CREATE TABLE out_t (id BIGINT, payload STRING, chars INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'properties.max.request.size' = '33554432', 'format' = 'json');
INSERT INTO out_t SELECT id, payload, CHAR_LENGTH(payload), UPPER(name) FROM src WHERE MOD(id, 3) <> 1;
""",
    "rows": """
CREATE TABLE out_t (k BIGINT, n BIGINT, longest STRING, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'properties.max.request.size' = '33554432', 'key.format' = 'json', 'value.format' = 'json');
INSERT INTO out_t SELECT MOD(id, 7), COUNT(*), MAX(payload) FROM src WHERE score > 0.1 GROUP BY MOD(id, 7);
""",
}
ENABLED = "SET 'accelerator.enabled' = 'true';\n"


def messages(count: int, payload_chars: int, seed: int, first_id: int = 0) -> list[str]:
    """json rows whose `payload` is `payload_chars` long (non-ASCII mixed in)."""
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789äöü€✓"
    out = []
    for i in range(first_id, first_id + count):
        head = "".join(rng.choice(alphabet) for _ in range(200))
        payload = (head * (payload_chars // 200 + 1))[:payload_chars - 6] + f"{i:06d}"
        out.append(json.dumps({"id": i, "name": f"n{rng.randrange(1000)}", "payload": payload,
                               "score": rng.random()}, ensure_ascii=rng.random() < 0.5))
    return out


def run(gateway, kafka_broker, new_topic, source: str, job: str, settings: str = "") -> list[tuple]:
    sink = new_topic(f"shm-budget-{job}", config={"max.message.bytes": str(32 << 20)})
    (job_id,) = gateway.run_sql(settings + SOURCE + JOBS[job],
                                {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink},
                                timeout_s=600)
    names = [v["name"] for v in gateway.cluster.rest(f"/jobs/{job_id}")["vertices"]]
    assert any("Accelerated[" in n for n in names) == bool(settings), names
    if settings and job == "rows":
        assert any("Accelerated[out_t-encode]" in n for n in names), f"the upsert sink is no encode stage: {names}"
        assert any("Accelerated[" in n and "-encode]" not in n for n in names), f"no rows stage: {names}"
    return [(r.key, r.value) for r in kafka_broker.consume(sink, timeout_s=300)]


def taskmanagers(cluster) -> list[int]:
    return [p for p in cluster.daemon_pids()
            if b"TaskManagerRunner" in open(f"/proc/{p}/cmdline", "rb").read()]


def no_sidecar_or_region_left(taskmanager: int) -> None:
    deadline = time.monotonic() + 15
    while sidecars.sidecar_pids([taskmanager]) or os.listdir(f"/proc/{taskmanager}/root/dev/shm"):
        assert time.monotonic() < deadline, (sidecars.sidecar_pids([taskmanager]),
                                             os.listdir(f"/proc/{taskmanager}/root/dev/shm"))
        time.sleep(0.2)


@pytest.fixture(scope="module")
def small_shm_cluster(request):
    # Managed memory (where the accelerated operators' Arrow buffers come from) large enough for
    # the negative control's 180 MB batch, so it reaches /dev/shm rather than the Arrow limit.
    cluster = FlinkCluster(extra_jars=[locations.shim_jar()], launcher=SMALL_SHM,
                           config={"accelerator.python.executable": sys.executable,
                                   "taskmanager.memory.process.size": "3g",
                                   "taskmanager.memory.managed.size": "1536m"}).start()
    yield cluster
    cluster.stop(keep_logs=request.session.testsfailed > 0)


@pytest.fixture(scope="module")
def gateway(small_shm_cluster):
    gateway = SqlGateway(small_shm_cluster).start()
    yield gateway
    gateway.stop()


def test_30kb_messages_run_on_a_64mb_dev_shm_at_the_defaults(small_shm_cluster, gateway, kafka_broker, new_topic):
    (taskmanager,) = taskmanagers(small_shm_cluster)
    shm = os.statvfs(f"/proc/{taskmanager}/root/dev/shm")
    assert shm.f_blocks * shm.f_frsize == SHM_MB << 20, "the TaskManager does not see the small /dev/shm"

    source = new_topic("shm-budget-30kb")
    kafka_broker.produce(source, messages(6000, 30_000, seed=20261205))
    for job in JOBS:
        stock = run(gateway, kafka_broker, new_topic, source, job)
        assert len(stock) > 100, "the stock run wrote (almost) nothing; the comparison would prove nothing"
        assert run(gateway, kafka_broker, new_topic, source, job, ENABLED) == stock, job

    # Negative control: without the byte bound (one batch of all 6,000 messages, 180 MB) the
    # same job cannot fit, and says which option to change.
    unbounded = ENABLED + ("SET 'accelerator.batch.max-bytes' = '1 gb';\n"
                           "SET 'accelerator.batch.max-delay' = '10 min';\n")
    with pytest.raises(JobFailed) as failure:
        run(gateway, kafka_broker, new_topic, source, "segment", unbounded)
    assert "/dev/shm" in failure.value.exception and "accelerator.batch.max-bytes" in failure.value.exception
    no_sidecar_or_region_left(taskmanager)


def test_messages_larger_than_a_batch_travel_alone_identical_to_stock(small_shm_cluster, gateway, kafka_broker,
                                                                      new_topic):
    """10 MB messages (the broker and clients configured for them, as a user would) between
    ordinary ones: each large one is a batch of its own in a grown region (on the 64 MB /dev/shm)."""
    mixed = []
    for i, small in enumerate(messages(LARGE_MESSAGES * 4, 300, seed=11)):
        mixed.append(small)
        if i % 4 == 1:
            mixed += messages(1, 10 << 20, seed=i, first_id=100_000 + i)
    source = new_topic("shm-budget-10mb", config={"max.message.bytes": str(32 << 20)})
    kafka_broker.produce(source, mixed, **{"message.max.bytes": 32 << 20})
    for job in JOBS:
        stock = run(gateway, kafka_broker, new_topic, source, job)
        assert max(len(v or b"") for _, v in stock) > 10 << 20, "no large message went through"
        assert run(gateway, kafka_broker, new_topic, source, job, ENABLED) == stock, job
    (taskmanager,) = taskmanagers(small_shm_cluster)
    no_sidecar_or_region_left(taskmanager)
