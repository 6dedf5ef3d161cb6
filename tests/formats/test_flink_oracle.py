"""The oracle's deserializer: Flink's own behaviour on the messages our decoder will have to match."""

from decimal import Decimal

from accelerator.testing.flink_oracle import JsonDeserializer, JsonSerializer

ROW = "ROW<`a` INT, `b` DECIMAL(5, 2), `c` ARRAY<VARCHAR(2147483647)>>"


def test_rows_round_trip_through_flink():
    rows = [(1, Decimal("1.50"), ["x", None]), (None, None, None)]
    messages = JsonSerializer(ROW, {}).serialize(rows)
    assert [d.rows for d in JsonDeserializer(ROW, {}).deserialize(messages)] == [[r] for r in rows]


def test_tombstones_and_empty_messages_yield_no_rows():
    decoded = JsonDeserializer(ROW, {}).deserialize([None, b""])
    assert [(d.rows, d.error) for d in decoded] == [([], None), ([], None)]


def test_a_top_level_array_yields_one_row_per_element():
    decoded = JsonDeserializer(ROW, {}).deserialize([b'[{"a":1},{"a":2}]'])
    assert decoded[0].rows == [(1, None, None), (2, None, None)]


def test_bad_json_fails_unless_parse_errors_are_ignored():
    bad = [b'{"a":', b'{"a":"x"}']
    strict = JsonDeserializer(ROW, {}).deserialize(bad)
    assert all(d.rows is None and "Failed to deserialize JSON" in d.error for d in strict)
    lenient = JsonDeserializer(ROW, {"json.ignore-parse-errors": "true"}).deserialize(bad)
    # A broken record becomes a null row (the Kafka source drops it); a bad field becomes null.
    assert [d.rows for d in lenient] == [[None], [(None, None, None)]]


def test_avro_rows_round_trip_through_flink_and_tombstones_give_none():
    from accelerator.testing.flink_oracle import AvroDeserializer, AvroSerializer

    rows = [(1, Decimal("1.50"), ["x", None]), (None, None, None)]
    messages = AvroSerializer(ROW, {}).serialize(rows)
    assert messages[1] == b"\x00\x00\x00"  # three null union branches: the top-level row is NOT NULL
    decoded = AvroDeserializer(ROW, {}).deserialize(messages + [None, b"\x02"])
    assert [d.rows for d in decoded[:3]] == [[rows[0]], [rows[1]], []]
    assert "Failed to deserialize Avro record" in decoded[3].error
