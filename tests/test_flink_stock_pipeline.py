"""Real Flink 2.2.1 (the stock distribution) on a real broker: Kafka JSON -> SQL -> Kafka JSON."""

import json

import pytest

from accelerator.testing.flink import JobFailed, SqlSubmissionFailed

pytestmark = pytest.mark.services

TABLES = """
CREATE TABLE orders (id BIGINT, `user` STRING, amount INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${source}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json');
CREATE TABLE big_orders (id BIGINT, shouted STRING, doubled INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${sink}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
"""
QUERY = """INSERT INTO big_orders
SELECT id, UPPER(`user`), amount * 2, note FROM orders WHERE amount >= 10 AND `user` <> 'bob';
"""
FILTER_JOB = TABLES + QUERY
ORDERS = [
    {"id": 1, "user": "ann", "amount": 5, "note": "too small"},
    {"id": 2, "user": "carol", "amount": 12, "note": None},
    {"id": 3, "user": "bob", "amount": 50, "note": "filtered by user"},
    {"id": 4, "user": "dave", "amount": 10, "note": "édge ✓"},
    {"id": 5, "user": "erin", "amount": 9},
    {"id": 6, "user": "fay", "amount": 1000, "note": "last"},
]
# Flink's json format for FILTER_JOB on ORDERS: sink column order, compact, nulls written, UTF-8 unescaped.
EXPECTED = [
    b'{"id":2,"shouted":"CAROL","doubled":24,"note":null}',
    '{"id":4,"shouted":"DAVE","doubled":20,"note":"édge ✓"}'.encode(),
    b'{"id":6,"shouted":"FAY","doubled":2000,"note":"last"}',
]


def _run(kafka_broker, flink_cluster, new_topic, script, messages):
    source, sink = new_topic("orders"), new_topic("big-orders")
    kafka_broker.produce(source, messages)
    flink_cluster.run_sql(script, {"bootstrap": kafka_broker.bootstrap, "source": source, "sink": sink})
    return [r.value for r in kafka_broker.consume(sink)]


def test_filter_and_project_gives_flinks_exact_json(kafka_broker, flink_cluster, new_topic):
    out = _run(kafka_broker, flink_cluster, new_topic, FILTER_JOB, [json.dumps(o) for o in ORDERS])
    assert out == EXPECTED


def test_malformed_input_fails_the_job_with_flinks_reason(kafka_broker, flink_cluster, new_topic):
    messages = [json.dumps(ORDERS[1]), '{"id": 7, "user": "x", "amount": '] + [json.dumps(ORDERS[3])]
    with pytest.raises(JobFailed) as failure:
        _run(kafka_broker, flink_cluster, new_topic, FILTER_JOB, messages)
    assert failure.value.state == "FAILED"
    assert "Failed to deserialize JSON" in failure.value.exception


def test_invalid_sql_is_reported_with_the_clients_error(kafka_broker, flink_cluster, new_topic):
    with pytest.raises(SqlSubmissionFailed, match="no_such_column"):
        _run(kafka_broker, flink_cluster, new_topic,
             TABLES + "INSERT INTO big_orders SELECT id, no_such_column, 1, note FROM orders;", [])

