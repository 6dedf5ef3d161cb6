"""The encode stage of an upsert-kafka sink (substrait-plans/encode_upsert.json) against Flink's own
upsert-kafka record serializer, hosted through JPype: for a stock operator's changelog, the records
Flink's sink writes for the original table (the primary key as the csv key, without its prefix; the
other columns as the json value; a tombstone for each DELETE and UPDATE_BEFORE) must be the records
the same serializer writes for the raw twin table, fed the sidecar's key and value bytes with the
change kind the shim carries beside each row."""

from __future__ import annotations

import json

import pyarrow as pa

from accelerator.plans.stage import StagePlan
from accelerator.sidecar.encode_stage import EncodeStage
from accelerator.testing import flink_oracle, locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"
#: The sink table's physical row, as Flink's Kafka connector hands it on (the primary key NOT NULL).
PHYSICAL = "ROW<`k_name` VARCHAR(2147483647) NOT NULL, `n` BIGINT NOT NULL, `total` BIGINT>"
#: The raw twin's row: value bytes, then the key bytes, its primary key.
TWIN = "ROW<`value` VARBINARY(2147483647), `key` VARBINARY(2147483647) NOT NULL>"

#: (kind, k, n, total): inserts, updates (one retracted first), deletes, a key inserted again;
#: keys with the csv delimiter, a quote and non-ASCII text; a NULL in the value.
CHANGELOG = [
    ("INSERT", "ann", 1, 5),
    ("INSERT", "b,o \"b\"", 1, None),
    ("UPDATE_AFTER", "ann", 2, 12),
    ("UPDATE_BEFORE", "ann", 2, 12),
    ("UPDATE_AFTER", "ann", 3, -4),
    ("DELETE", "b,o \"b\"", 1, None),
    ("INSERT", "zoë ✓", 1, 9223372036854775807),
    ("INSERT", "b,o \"b\"", 1, 0),
    ("DELETE", "ann", 3, -4),
]


def _record_serializer(physical: str, key_schema, key_fields: list[int], value_schema, value_fields: list[int]):
    """Flink's DynamicKafkaRecordSerializationSchema in upsert mode, as KafkaDynamicSink builds it for
    one topic, Kafka's default partitioner and no written metadata (its constructor is package-private)."""
    j = flink_oracle.java()
    jpype = j.jpype
    row = flink_oracle.logical_type(physical)
    row_data = jpype.JClass("org.apache.flink.table.data.RowData")
    getter = jpype.JClass("org.apache.flink.table.data.RowData$FieldGetter")
    metadata = jpype.JClass("org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink$WritableMetadata")
    cls = jpype.JClass("org.apache.flink.streaming.connectors.kafka.table.DynamicKafkaRecordSerializationSchema")
    (constructor,) = cls.class_.getDeclaredConstructors()
    constructor.setAccessible(True)
    topics = j.ArrayList()
    topics.add(jpype.JString("out"))

    def getters(fields):
        return jpype.JArray(getter)([row_data.createFieldGetter(row.getTypeAt(i), i) for i in fields])

    positions = jpype.JArray(jpype.JInt)([-1] * len(metadata.values()))
    return constructor.newInstance(topics, None, None, key_schema, value_schema, getters(key_fields),
                                   getters(value_fields), jpype.JBoolean(False), positions, jpype.JBoolean(True))


def _written(serializer, rows) -> list[tuple[bytes, bytes | None]]:
    """(key, value) of the record Flink's sink makes of each row; a null value is a tombstone."""
    j = flink_oracle.java()

    @j.jpype.JImplements("org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema$KafkaSinkContext")
    class Context:
        @j.jpype.JOverride
        def getParallelInstanceId(self):
            return 0

        @j.jpype.JOverride
        def getNumberOfParallelInstances(self):
            return 1

        @j.jpype.JOverride
        def getPartitionsForTopic(self, topic):
            return j.jpype.JArray(j.jpype.JInt)([0, 1, 2])

    out = []
    for row in rows:
        record = serializer.serialize(row, Context(), None)
        value = record.value()
        out.append((bytes(record.key()), None if value is None else bytes(value)))
    return out


def _with_kind(row, kind: str):
    row.setRowKind(flink_oracle.java().jpype.JClass("org.apache.flink.types.RowKind").valueOf(kind))
    return row


def test_keys_values_and_tombstones_are_the_records_flinks_upsert_sink_writes():
    descriptor = json.loads((GOLDEN / "encode_upsert.json").read_text(encoding="utf-8"))
    names = [f["name"] for f in descriptor["input"]["fields"]]
    batch = pa.RecordBatch.from_pylist([dict(zip(names, r[1:])) for r in CHANGELOG],
                                       schema=StagePlan(descriptor).decoded_schema)
    messages = EncodeStage(descriptor).process(batch)
    assert messages.schema.names[:2] == ["value", "key"]
    values, keys = messages.column(0).to_pylist(), messages.column(1).to_pylist()
    assert len(values) == len(CHANGELOG), "one message per row: the change kinds line up by position"

    j = flink_oracle.java()
    # The original table: key csv over the primary key (prefix 'k_' stripped), value json EXCEPT_KEY.
    stock = _record_serializer(PHYSICAL, flink_oracle.CsvSerializer("ROW<`name` STRING NOT NULL>", {})._schema, [0],
                               flink_oracle.JsonSerializer("ROW<`n` BIGINT NOT NULL, `total` BIGINT>", {})._schema,
                               [1, 2])
    physical = flink_oracle.logical_type(PHYSICAL)
    expected = _written(stock, [_with_kind(flink_oracle.to_internal(physical, r[1:]), r[0]) for r in CHANGELOG])
    # The raw twin: raw key (its primary key column) and raw value, EXCEPT_KEY, still upsert-kafka.
    twin = _record_serializer(TWIN, flink_oracle.RawSerializer("ROW<`key` BYTES NOT NULL>", {})._schema, [1],
                              flink_oracle.RawSerializer("ROW<`value` BYTES>", {})._schema, [0])
    twin_rows = [_with_kind(j.GenericRowData.of(j.jpype.JArray(j.jpype.JByte)(v), j.jpype.JArray(j.jpype.JByte)(k)),
                            r[0]) for r, v, k in zip(CHANGELOG, values, keys)]
    written = _written(twin, twin_rows)

    assert written == expected
    assert [v is None for _, v in expected] == [r[0] in ("DELETE", "UPDATE_BEFORE") for r in CHANGELOG], \
        "the oracle writes tombstones for deletes and update-befores"
