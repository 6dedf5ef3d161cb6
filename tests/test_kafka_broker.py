import time

import pytest

from accelerator.testing import processes
from accelerator.testing.kafka import KafkaBroker, ProduceFailed, Record

pytestmark = pytest.mark.services


def test_round_trip_keeps_order_keys_partitions_timestamps_and_headers(kafka_broker, new_topic):
    topic = new_topic("roundtrip", partitions=2)
    sent = [Record(value=f"v{i}".encode(), key=f"k{i}".encode(), partition=i % 2,
                   timestamp=1_700_000_000_000 + i, headers=(("h", f"{i}".encode()),))
            for i in range(10)]
    assert kafka_broker.produce(topic, sent + [Record(value=None, key=b"tombstone", partition=1)]) == 11

    got = kafka_broker.consume(topic)

    assert [(r.partition, r.offset) for r in got] == [(0, i) for i in range(5)] + [(1, i) for i in range(6)]
    by_value = {r.value: r for r in got}
    for s in sent:
        r = by_value[s.value]
        assert (r.key, r.partition, r.timestamp, r.headers) == (s.key, s.partition, s.timestamp, s.headers)
    assert got[-1].value is None and got[-1].key == b"tombstone"


def test_a_record_the_broker_rejects_fails_the_produce_call(kafka_broker, new_topic):
    """A timestamp far in the future is refused by the broker (INVALID_TIMESTAMP): say so, loudly."""
    far_future = int(time.time() * 1000) + 400 * 24 * 3600 * 1000
    with pytest.raises(ProduceFailed, match="undelivered"):
        kafka_broker.produce(new_topic("rejected"), [Record(value=b"v", timestamp=far_future)])


def test_consume_of_an_empty_topic_returns_nothing(kafka_broker, new_topic):
    assert kafka_broker.consume(new_topic("empty", partitions=3)) == []


def test_stop_leaves_no_process_and_no_folder():
    broker = KafkaBroker().start()
    pid, workdir = broker.pid, broker.workdir
    assert processes.alive(pid) and (workdir / "server.log").exists()
    broker.stop()
    assert not processes.alive(pid)
    assert not workdir.exists()
