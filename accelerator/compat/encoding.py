"""Encodes case input rows with stock Flink's own serializer for formats whose bytes we must not
write ourselves (avro, protobuf): a JSON staging topic, one bounded Flink job into a topic of the
case's own table definition, and the encoded records (value, and key when the table writes one)
read back in order."""

from __future__ import annotations

import json
import re
import uuid

from accelerator.compat.case import Case, CaseError
from accelerator.testing import sql
from accelerator.testing.flink import FlinkCluster
from accelerator.testing.gateway import SqlGateway
from accelerator.testing.kafka import KafkaBroker, Record

CREATE_TABLE = re.compile(r"^\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*CREATE\s+(?:TEMPORARY\s+)?TABLE\s+"
                          r"(?:IF\s+NOT\s+EXISTS\s+)?((?:`[^`]+`|[\w.])+)", re.I | re.S)
TIME_ATTRIBUTE = re.compile(r"\s*\*(ROWTIME|PROCTIME)\*$")


def encode_rows(case: Case, topic: str, rows: list[dict], *, broker: KafkaBroker,
                cluster: FlinkCluster, gateway: SqlGateway) -> list[Record]:
    """The messages (value and key) Flink writes for `rows` into the table the case declares on `topic`."""
    statement = _table_statement(case, topic)
    run = uuid.uuid4().hex[:8]
    staging, encoded = f"stage-{case.name}-{topic}-{run}", f"encoded-{case.name}-{topic}-{run}"
    broker.create_topic(staging)
    broker.create_topic(encoded)
    broker.produce(staging, [json.dumps(r, ensure_ascii=False) for r in rows])
    placeholders = {n: f"unused-{n}" for n in sql.placeholders(case.script)}
    placeholders.update({"bootstrap": broker.bootstrap, f"topic:{topic}": encoded})
    with gateway.session({"parallelism.default": "1"}) as session:
        session.execute(sql.render(statement, placeholders))
        table = CREATE_TABLE.match(statement).group(1)
        columns = [(row[0], TIME_ATTRIBUTE.sub("", row[1]))
                   for row in session.execute(f"DESCRIBE {table}").rows if row[4] is None]
        column_list = ", ".join(f"`{name}`" for name, _ in columns)
        session.execute(
            f"CREATE TEMPORARY TABLE `__staging` ({', '.join(f'`{n}` {t}' for n, t in columns)}) WITH ("
            f"'connector' = 'kafka', 'topic' = '{staging}', 'properties.bootstrap.servers' = '{broker.bootstrap}', "
            "'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', "
            "'format' = 'json', 'json.fail-on-missing-field' = 'false')")
        job_id = session.execute(
            f"INSERT INTO {table} ({column_list}) SELECT {column_list} FROM `__staging`").job_id
    cluster.wait_for_job(job_id)
    records = broker.consume(encoded)
    if len(records) != len(rows):
        raise CaseError(f"{case.inputs[topic]}: Flink encoded {len(records)} of {len(rows)} rows")
    return records


def _table_statement(case: Case, topic: str) -> str:
    marker = "${topic:" + topic + "}"
    for statement in sql.split_statements(case.script):
        if marker in statement and CREATE_TABLE.match(statement):
            return statement
    raise CaseError(f"{case.path}/case.sql: no CREATE TABLE uses {marker}")
