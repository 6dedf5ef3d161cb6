"""The sidecar's key rows and key groups against Flink's own: `flink_key_groups.json` is written by
the jar's `FlinkKeyGroupsTest` from Flink's key selector and `KeyGroupRangeAssignment` (and that
test fails when the file is not what Flink computes)."""

import json
from pathlib import Path

import pyarrow as pa
import pytest

from accelerator.exchange import key_groups, key_rows
from accelerator.formats import timestamps, types

GOLDEN = json.loads((Path(__file__).parent / "flink_key_groups.json").read_text())


def _column(values, t):
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        valid = pa.array([v is not None for v in values])
        millis = pa.array([v or 0 for v in values], pa.int64())
        return timestamps.from_parts(millis, pa.array([0] * len(values), pa.int32()), valid)
    return pa.array(values, types.to_arrow(t))


def _case_columns(case):
    key_types = [types.parse(t) for t in case["key_types"]]
    rows = [row["key"] for row in case["rows"]]
    columns = [_column([row[i] for row in rows], t) for i, t in enumerate(key_types)]
    return key_types, columns


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: ",".join(c["key_types"]))
def test_key_rows_are_flinks_binary_rows(case):
    key_types, columns = _case_columns(case)
    rows = key_rows.binary_key_rows(columns, key_types)
    assert [b.hex() for b in rows.to_pylist()] == [row["bytes"] for row in case["rows"]]


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: ",".join(c["key_types"]))
def test_key_groups_and_subtasks_are_flinks(case):
    key_types, columns = _case_columns(case)
    rows = key_rows.binary_key_rows(columns, key_types)
    assert key_groups.binary_row_hashes(rows).tolist() == [row["hash"] for row in case["rows"]]
    for m, max_parallelism in enumerate(GOLDEN["max_parallelisms"]):
        groups = key_groups.key_groups(rows, max_parallelism)
        assert groups.tolist() == [row["key_groups"][m] for row in case["rows"]], max_parallelism
        for p, parallelism in enumerate(GOLDEN["parallelisms"]):
            if parallelism > max_parallelism:
                continue
            subtasks = key_groups.operator_indexes(groups, max_parallelism, parallelism)
            assert subtasks.tolist() == [row["subtasks"][m][p] for row in case["rows"]]


def test_a_sliced_batch_gives_the_rows_of_the_slice():
    case = next(c for c in GOLDEN["cases"] if c["key_types"] == ["VARCHAR(2147483647)", "BIGINT", "INT"])
    key_types, columns = _case_columns(case)
    rows = key_rows.binary_key_rows([c.slice(37, 50) for c in columns], key_types)
    assert [b.hex() for b in rows.to_pylist()] == [row["bytes"] for row in case["rows"][37:87]]
    assert key_groups.key_groups(rows, 128).tolist() == [row["key_groups"][3] for row in case["rows"][37:87]]


def test_an_empty_batch_has_no_key_groups():
    rows = key_rows.binary_key_rows([pa.array([], pa.int64())], [types.parse("BIGINT")])
    assert len(rows) == 0 and key_groups.key_groups(rows, 128).tolist() == []


def test_a_key_type_without_a_layout_is_refused():
    assert not key_rows.supported(types.parse("DOUBLE"))
    assert not key_rows.supported(types.parse("TIMESTAMP(6)"))
    with pytest.raises(ValueError, match="DOUBLE"):
        key_rows.binary_key_rows([pa.array([1.0])], [types.parse("DOUBLE")])


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: ",".join(c["key_types"]))
def test_key_columns_read_flinks_key_rows_back(case):
    key_types, columns = _case_columns(case)
    flink_rows = pa.array([bytes.fromhex(row["bytes"]) for row in case["rows"]], pa.binary())
    read = key_rows.key_columns(flink_rows, key_types)
    assert [c.type for c in read] == [types.to_arrow(t) for t in key_types]
    assert [c.to_pylist() for c in read] == [c.to_pylist() for c in columns]


def test_key_columns_of_a_sliced_batch_and_of_none():
    case = next(c for c in GOLDEN["cases"] if c["key_types"] == ["VARCHAR(2147483647)", "BIGINT", "INT"])
    key_types, columns = _case_columns(case)
    rows = key_rows.binary_key_rows(columns, key_types).slice(37, 50)
    assert [c.to_pylist() for c in key_rows.key_columns(rows, key_types)] == [c.slice(37, 50).to_pylist() for c in columns]
    assert [c.to_pylist() for c in key_rows.key_columns(rows.slice(0, 0), key_types)] == [[], [], []]


def test_a_string_key_whose_stored_bytes_are_not_utf8_is_refused():
    # One VARCHAR field: the 8-byte header, then the slot holding 0xFF inline (length 1).
    row = bytes(8) + b"\xff" + bytes(6) + bytes([0x81])
    with pytest.raises(ValueError, match="not UTF-8"):
        key_rows.key_columns(pa.array([row], pa.binary()), [types.parse("VARCHAR(2147483647)")])
