"""How key rows and value rows of the same messages become table rows (Flink's Kafka source:
per message, for each value row in order, one row per key row; a column from the value row when
the value carries it, else from the key row)."""

import pyarrow as pa

from accelerator.sidecar.kafka_rows import KeyLayout, Rows, join, project

LAYOUT = KeyLayout(fields=("k_id",), columns=("k_id", "amount"))


def rows(column: str, values: list, kept: list[int] | None = None) -> Rows:
    return Rows(pa.RecordBatch.from_pydict({column: values}), None if kept is None else pa.array(kept, pa.int32()))


def test_one_key_and_one_value_per_message_line_up_in_order():
    out = join(rows("amount", [10, 20]), rows("id", [1, 2]), 2, LAYOUT)
    assert out.batch.to_pydict() == {"k_id": [1, 2], "amount": [10, 20]} and out.kept is None


def test_a_message_without_a_key_row_gives_no_row_and_key_arrays_multiply():
    # Message 0: no key row (a null key); message 1: two key rows; message 2: two value rows, one key.
    values = rows("amount", [10, 20, 30, 31], kept=[0, 1, 2, 2])
    keys = rows("id", [11, 12, 3], kept=[1, 1, 2])
    out = join(values, keys, 3, LAYOUT)
    assert out.batch.to_pydict() == {"k_id": [11, 12, 3, 3], "amount": [20, 20, 30, 31]}
    assert out.kept.to_pylist() == [1, 1, 2, 2]


def test_a_column_the_value_carries_comes_from_the_value():
    layout = KeyLayout(fields=("id",), columns=("id", "amount"))
    values = Rows(pa.RecordBatch.from_pydict({"id": [1, None], "amount": [5, 6]}), None)
    out = join(values, rows("id", [100, 200]), 2, layout)
    assert out.batch.to_pydict() == {"id": [1, None], "amount": [5, 6]}


def test_project_selects_and_renames_for_the_key_format():
    result = pa.RecordBatch.from_pydict({"k_region": ["eu"], "total": [3]})
    assert project(result, ["k_region"], ["region"]).to_pydict() == {"region": ["eu"]}
