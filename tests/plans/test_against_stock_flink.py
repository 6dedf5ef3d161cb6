"""Every accelerated golden descriptor, executed by the sidecar's plan on the same input, gives
byte for byte what stock Flink 2.2.1 wrote to Kafka for the same SQL (JSON in, JSON out).

Flink's side is the real query on the real distribution; ours is the descriptor's plan on a
decoded batch of the same messages, encoded with the sidecar's json encoder.
"""

from __future__ import annotations

import time

import pytest

from accelerator.formats import json as json_format
from accelerator.formats import types
from accelerator.plans import StagePlan
from accelerator.testing import sql
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.kafka import Record
from decoding import decoded_batch
from goldens import GOLDEN, accelerated_names, descriptor, input_messages

pytestmark = pytest.mark.services


def message_timestamps(count: int) -> list[int]:
    """Epoch ms per message, one second apart, ending now: recent enough that the broker's
    7-day retention does not delete them while the test runs."""
    now = int(time.time() * 1000)
    return [now - 1000 * (count - i) for i in range(count)]


@pytest.fixture(scope="module")
def gateway(flink_cluster):
    gateway = SqlGateway(flink_cluster).start()
    yield gateway
    gateway.stop()


def stock_flink_output(name, messages, timestamps, kafka_broker, flink_cluster, gateway, new_topic) -> list[bytes]:
    source, sink = new_topic(f"{name}-in"), new_topic(f"{name}-out")
    kafka_broker.produce(source, [Record(value=m.encode(), timestamp=t) for m, t in zip(messages, timestamps)])
    script = (GOLDEN / f"{name}.sql").read_text(encoding="utf-8")
    params = {p: (kafka_broker.bootstrap if p == "bootstrap" else source if p == "topic:src" else sink)
              for p in sql.placeholders(script)}
    with gateway.session() as session:
        (job_id,) = session.execute_script(script, params)
    flink_cluster.wait_for_job(job_id)
    return [r.value for r in kafka_broker.consume(sink)]


def accelerated_output(name: str, messages: list[str], timestamps: list[int]) -> list[bytes]:
    desc = descriptor(name)
    plan = StagePlan(desc)
    metadata = {"partition": [0] * len(messages), "offset": list(range(len(messages))), "timestamp": timestamps}
    batch = decoded_batch(messages, plan.decoded_schema, desc["decode"]["row_type"], metadata)
    result = plan.execute(batch)
    encode = desc["encode"]
    values = json_format.encode(result, types.parse(encode["row_type"]), json_format.parse_options(encode["options"]))
    return values.to_pylist()


#: json in, json out: the inputs here are json lines (avro goldens are run by the compat suite's avro cases).
#: Rows stages (no encode) hand rows to stock operators, encode stages (no decode) take theirs; the
#: operator's Java tests compare those.
JSON_GOLDENS = [n for n in accelerated_names()
                if (descriptor(n).get("decode") or {}).get("format") == "json"
                and (descriptor(n)["encode"] or {}).get("format") == "json"]


@pytest.mark.parametrize("name", JSON_GOLDENS)
def test_plan_output_is_byte_identical_to_stock_flink(name, kafka_broker, flink_cluster, gateway, new_topic):
    messages = input_messages(name)
    timestamps = message_timestamps(len(messages))
    expected = stock_flink_output(name, messages, timestamps, kafka_broker, flink_cluster, gateway, new_topic)
    assert accelerated_output(name, messages, timestamps) == expected
