"""The SQL gateway path gives the same results as sql-client.sh, with the same errors."""

import json

import pytest

from accelerator.testing.flink import SqlSubmissionFailed
from accelerator.testing.gateway import SqlGateway

from test_flink_stock_pipeline import EXPECTED, FILTER_JOB, ORDERS, TABLES

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def gateway(flink_cluster):
    gateway = SqlGateway(flink_cluster).start()
    yield gateway
    gateway.stop()


def test_script_through_the_gateway_gives_flinks_exact_json(kafka_broker, flink_cluster, gateway, new_topic):
    source, sink = new_topic("orders"), new_topic("big-orders")
    kafka_broker.produce(source, [json.dumps(o) for o in ORDERS])
    with gateway.session() as session:
        (job_id,) = session.execute_script(FILTER_JOB, {"bootstrap": kafka_broker.bootstrap,
                                                        "source": source, "sink": sink})
    flink_cluster.wait_for_job(job_id)
    assert [r.value for r in kafka_broker.consume(sink)] == EXPECTED


def test_session_settings_apply_to_later_statements(gateway):
    with gateway.session() as session:
        session.execute("SET 'table.local-time-zone' = 'Asia/Tokyo'")
        rows = session.execute("SET").rows
    assert ["table.local-time-zone", "Asia/Tokyo"] in rows


def test_planner_errors_name_the_cause_and_the_statement(kafka_broker, gateway):
    with gateway.session() as session, pytest.raises(SqlSubmissionFailed) as failure:
        session.execute_script(TABLES + "INSERT INTO big_orders SELECT id, no_such_column, 1, note FROM orders;",
                               {"bootstrap": kafka_broker.bootstrap, "source": "s", "sink": "t"})
    first_line = str(failure.value).splitlines()[0]
    assert "no_such_column" in first_line
    assert "INSERT INTO big_orders" in str(failure.value)
