"""DISTINCT aggregates of the group_agg stage against a model of stock Flink's distinct view built
from Python sets: per group and aggregate, the set of values whose row passed the aggregate's
FILTER; COUNT(DISTINCT x) is its size and SUM(DISTINCT x) its sum; a NULL value is never counted;
DOUBLE values are told apart by their bits with every NaN one NaN (Java's `Double.equals`), so 0.0
and -0.0 are two values. Emission follows `GroupAggFunction`: +I on a group's first row, -U/+U
when the values change, nothing when they do not. Random batches, several arguments with FILTERs
sharing one, hot keys, snapshots restored 1 -> 1, 2 -> 1 and 1 -> 2 subtasks."""

from __future__ import annotations

import math
import random
import struct
from datetime import date
from decimal import Decimal

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.formats import timestamps
from accelerator.groupagg.stage import GroupAggStage, GroupAggStateError
from accelerator.sidecar.stages import DescriptorError

BUDGET = str(1 << 30).encode()
I, UB, UA = 0, 1, 2
KEY_GROUPS = 128
#: (function, argument, FILTER column or None, distinct) of every aggregate the stages below run.
AGGREGATES = [("count1", None, None, False), ("count", "x", None, True), ("count", "x", "f1", True),
              ("count", "x", "f2", True), ("count", "y", "f1", True), ("count", "y", None, True),
              ("count", "x", None, False)]


def descriptor(x_type: str, aggregates=AGGREGATES, update_before: bool = True) -> dict:
    """A group_agg descriptor grouping by one STRING key over `x` (`x_type`), `y` (STRING) and the
    FILTER columns `f1`, `f2`; every aggregate's value is a BIGINT but a SUM's (`x_type`)."""
    described = [{"function": f, "arg": arg, "acc": "BIGINT NOT NULL" if f.startswith("count") else x_type,
                  "emit": True} | ({"filter": where} if where else {}) | ({"distinct": True} if distinct else {})
                 for f, arg, where, distinct in aggregates]
    keys = [{"name": "k", "type": "VARCHAR(2147483647)"}]
    return {
        "name": "t", "keys": keys,
        "input": {"fields": [{"name": "$key", "type": "VARBINARY(2147483647)"},
                             {"name": "$key_group", "type": "INT NOT NULL"}, {"name": "x", "type": x_type},
                             {"name": "y", "type": "VARCHAR(2147483647)"}, {"name": "f1", "type": "BOOLEAN"},
                             {"name": "f2", "type": "BOOLEAN"}]},
        "aggregates": described, "generate_update_before": update_before,
        "output": {"fields": keys + [{"name": f"v{i}", "type": a["acc"]} for i, a in enumerate(described)]},
        "state": {"format": 2, "fingerprint": "cd" * 32}}


def key_group(key: str) -> int:
    return sum(key.encode()) % KEY_GROUPS


def call(s: GroupAggStage, name: bytes, batch: pa.RecordBatch, **metadata: bytes) -> pa.RecordBatch:
    return s.process(batch.replace_schema_metadata({**(batch.schema.metadata or {}), b"accelerator.call": name,
                                                    b"accelerator.state_budget": BUDGET, **metadata}))


def update(s: GroupAggStage, rows: list[tuple]) -> list[tuple]:
    """Rows (key, x, y, f1, f2) in; (batch row, kind, values...) of every row emitted out."""
    schema = s.spec.input_schema
    columns = list(zip(*rows))
    batch = pa.RecordBatch.from_arrays(
        [pa.array([k.encode() for k in columns[0]], pa.binary()),
         pa.array([key_group(k) for k in columns[0]], pa.int32())]
        + [pa.array(list(c), schema.field(n).type) for c, n in zip(columns[1:], ["x", "y", "f1", "f2"])],
        schema=schema)
    return [tuple(row.values()) for row in call(s, b"update", batch).to_pylist()]


def snapshot(s: GroupAggStage) -> pa.RecordBatch:
    return call(s, b"snapshot", pa.RecordBatch.from_arrays([], schema=pa.schema([])))


def restore(s: GroupAggStage, state: pa.RecordBatch, first: int = 0, last: int = KEY_GROUPS - 1) -> None:
    call(s, b"restore", state, **{"accelerator.key_group_start": str(first).encode(),
                                  "accelerator.key_group_end": str(last).encode()})


def canonical(value):
    """A value as Java's `equals` tells it from others: a float by its bits, every NaN one."""
    if isinstance(value, float):
        return struct.pack("<d", math.nan if math.isnan(value) else value)
    return value


class Model:
    """Stock's output row by row: per group, the set of values each aggregate has seen."""

    def __init__(self, aggregates=AGGREGATES, update_before: bool = True):
        self.aggregates, self.update_before = aggregates, update_before
        self.groups: dict[str, list] = {}

    def values(self, key: str) -> tuple:
        out = []
        for (function, arg, _, distinct), held in zip(self.aggregates, self.groups[key]):
            out.append(len(held) if distinct and function == "count" else held)
        return tuple(out)

    def run(self, rows: list[tuple]) -> list[tuple]:
        out = []
        for at, (key, x, y, f1, f2) in enumerate(rows):
            first = key not in self.groups
            if first:
                self.groups[key] = [set() if d else 0 for _, _, _, d in self.aggregates]
            before = self.values(key)
            fields = {"x": x, "y": y, "f1": f1, "f2": f2}
            for i, (function, arg, where, distinct) in enumerate(self.aggregates):
                if where is not None and fields[where] is not True:
                    continue
                if function == "count1":
                    self.groups[key][i] += 1
                elif distinct:
                    if fields[arg] is not None:
                        self.groups[key][i].add(canonical(fields[arg]))
                else:
                    self.groups[key][i] += fields[arg] is not None
            after = self.values(key)
            if first:
                out.append((at, I, *after))
            elif after != before:
                if self.update_before:
                    out.append((at, UB, *before))
                out.append((at, UA, *after))
        return out


POOLS = {
    "BIGINT": [None, 0, 1, -1, 2 ** 63 - 1, -2 ** 63, 42, 7],
    "INT": [None, 0, 3, -3, 2 ** 31 - 1, -2 ** 31],
    "DOUBLE": [None, math.nan, 0.0, -0.0, 1.5, -1e16, float("inf")],
    "DECIMAL(10, 2)": [None, Decimal("0.00"), Decimal("1.25"), Decimal("-1.25"), Decimal("99999999.99")],
    "VARCHAR(2147483647)": [None, "", "a", "b", "ünïcode", "a long value with spaces"],
    "BOOLEAN": [None, True, False],
    "DATE": [None, date(1970, 1, 1), date(2024, 2, 29), date(1900, 12, 31)],
}


def random_rows(rng: random.Random, x_type: str, n: int) -> list[tuple]:
    keys = ["hot", "a", "b", "c", "ünï", ""]
    return [("hot" if rng.random() < 0.5 else rng.choice(keys), rng.choice(POOLS[x_type]),
             rng.choice(POOLS["VARCHAR(2147483647)"]), rng.choice([True, False, None]), rng.choice([True, False, None]))
            for _ in range(n)]


def in_batches(s: GroupAggStage, rows: list[tuple], rng: random.Random) -> list[tuple]:
    out, at = [], 0
    while at < len(rows):
        size = rng.choice([1, 2, 7, 50, 400])
        out += [(r + at, *rest) for r, *rest in update(s, rows[at:at + size])]
        at += size
    return out


@pytest.mark.parametrize("x_type", sorted(POOLS))
def test_count_distinct_with_filters_matches_a_set_model_in_batches_of_every_size(x_type):
    rng = random.Random(x_type)
    rows = random_rows(rng, x_type, 1500)
    assert in_batches(GroupAggStage(descriptor(x_type)), rows, rng) == Model().run(rows)
    # Values repeat: most rows leave the DISTINCT counts as they were.
    only_distinct = [a for a in AGGREGATES if a[3]]
    emitted = in_batches(GroupAggStage(descriptor(x_type, only_distinct)), rows, rng)
    assert emitted == Model(only_distinct).run(rows)
    assert 0 < len(emitted) < len(rows) / 2


def test_nan_is_one_value_and_zero_and_negative_zero_are_two():
    s = GroupAggStage(descriptor("DOUBLE", [("count", "x", None, True)]))
    rows = [("a", x, None, None, None) for x in (math.nan, math.nan, 0.0, -0.0, 0.0, None, -0.0)]
    assert update(s, rows) == [(0, I, 1), (2, UB, 1), (2, UA, 2), (3, UB, 2), (3, UA, 3)]


def test_a_filtered_aggregate_counts_a_value_when_its_filter_first_holds_for_it():
    s = GroupAggStage(descriptor("BIGINT", [("count", "x", "f1", True), ("count", "x", None, True)],
                                 update_before=False))
    rows = [("a", 5, None, False, None), ("a", 5, None, None, None), ("a", 5, None, True, None),
            ("a", 5, None, True, None), ("a", 6, None, True, None)]
    assert update(s, rows) == [(0, I, 0, 1), (2, UA, 1, 1), (4, UA, 2, 2)]


def test_sum_of_distinct_values_adds_each_value_once():
    aggregates = [("sum", "x", None, True), ("sum", "x", "f1", True)]
    s = GroupAggStage(descriptor("BIGINT", aggregates))
    rows = [("a", 5, None, True, None), ("a", 5, None, True, None), ("a", -2, None, False, None),
            ("a", None, None, True, None), ("a", -2, None, True, None), ("b", 5, None, None, None)]
    assert update(s, rows) == [(0, I, 5, 5), (2, UB, 5, 5), (2, UA, 3, 5), (4, UB, 3, 5), (4, UA, 3, 3),
                               (5, I, 5, None)]


def test_timestamps_are_told_apart_by_milliseconds_and_nanoseconds():
    d = descriptor("TIMESTAMP(9)", [("count", "x", None, True)])
    s = GroupAggStage(d)
    values = timestamps.from_parts([5, 5, 5, 6, 0], [0, 1, 0, 0, 0], [True] * 4 + [False])
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b"a"] * 5), pa.array([1] * 5, pa.int32()), values, pa.nulls(5, pa.string()),
         pa.nulls(5, pa.bool_()), pa.nulls(5, pa.bool_())], schema=s.spec.input_schema)
    out = [tuple(r.values()) for r in call(s, b"update", batch).to_pylist()]
    assert out == [(0, I, 1), (1, UB, 1), (1, UA, 2), (3, UB, 2), (3, UA, 3)]


def test_snapshots_restore_into_one_subtask_and_rescale_to_two_and_from_two():
    rng = random.Random(5)
    rows = random_rows(rng, "VARCHAR(2147483647)", 1200)
    d = descriptor("VARCHAR(2147483647)")
    expected = Model().run(rows)
    head, tail = rows[:700], rows[700:]
    tail_expected = [(r - 700, *rest) for r, *rest in expected if r >= 700]

    def continued(stages: list[tuple[GroupAggStage, int, int]]) -> list[tuple]:
        """The tail's output, each row sent to the stage whose key groups hold its key (one batch
        per stage; the answers merged back in row order)."""
        out = []
        for s, first, last in stages:
            mine = [at for at, row in enumerate(tail) if first <= key_group(row[0]) <= last]
            out += [(mine[r], *rest) for r, *rest in update(s, [tail[at] for at in mine])] if mine else []
        return sorted(out, key=lambda e: e[0])

    # 1 -> 1
    one = GroupAggStage(d)
    assert in_batches(one, head, rng) == [e for e in expected if e[0] < 700]
    state = snapshot(one)
    assert state.schema.names[-2:] == ["$distinct0", "$distinct1"]
    assert state.num_rows == len({r[0] for r in head})
    restored = GroupAggStage(d)
    restore(restored, state)
    assert continued([(restored, 0, KEY_GROUPS - 1)]) == tail_expected

    # 1 -> 2: each new subtask takes its key groups' rows.
    halves = []
    for first, last in ((0, 63), (64, KEY_GROUPS - 1)):
        groups = pa.array([first <= g <= last for g in state.column("$key_group").to_pylist()])
        half = GroupAggStage(d)
        restore(half, state.filter(groups).replace_schema_metadata(state.schema.metadata), first, last)
        halves.append((half, first, last))
    assert continued(halves) == tail_expected

    # 2 -> 1: two subtasks' snapshots restored into one, in chunks of a few keys.
    twos = [(GroupAggStage(d), 0, 63), (GroupAggStage(d), 64, KEY_GROUPS - 1)]
    for s, first, last in twos:
        update(s, [row for row in head if first <= key_group(row[0]) <= last])
    merged = GroupAggStage(d)
    for s, _, _ in twos:
        state = snapshot(s)
        for start in range(0, state.num_rows, 2):
            restore(merged, state.slice(start, 2))
    assert continued([(merged, 0, KEY_GROUPS - 1)]) == tail_expected


def test_a_group_restored_twice_or_state_of_format_one_is_refused():
    d = descriptor("BIGINT")
    s = GroupAggStage(d)
    update(s, [("a", 1, "x", True, True)])
    state = snapshot(s)
    with pytest.raises(GroupAggStateError, match="restored state holds a key twice"):
        target = GroupAggStage(d)
        restore(target, state)
        restore(target, state)
    entries = state.column("$distinct0")
    doubled = pa.ListArray.from_arrays(pa.array([0, 2], pa.int32()), pa.concat_arrays([entries.flatten()] * 2),
                                       type=entries.type)
    twice = state.set_column(state.schema.get_field_index("$distinct0"), state.schema.field("$distinct0"), doubled)
    with pytest.raises(GroupAggStateError, match="holds a DISTINCT value of 'x' twice for one group"):
        restore(GroupAggStage(d), twice)
    older = state.replace_schema_metadata({**state.schema.metadata, b"accelerator.state_format": b"1"})
    with pytest.raises(GroupAggStateError, match="older flink-accelerator in state format 1; this sidecar reads"
                                                 " format 2"):
        restore(GroupAggStage(d), older)


def test_distinct_shapes_the_sidecar_does_not_reproduce_are_refused_at_open():
    with pytest.raises(DescriptorError, match="DISTINCT count"):
        GroupAggStage(descriptor("BIGINT", [("count1", None, None, True)]))
    too_many = [("count", "x", None, True)] * 65
    with pytest.raises(DescriptorError, match="65 DISTINCT aggregates over 'x'"):
        GroupAggStage(descriptor("BIGINT", too_many))
    updating = descriptor("BIGINT", [("count1", None, None, False), ("count", "x", None, True)])
    updating["input"]["fields"].insert(2, {"name": "$kind", "type": "TINYINT NOT NULL"})
    updating["record_counter"] = 0
    with pytest.raises(DescriptorError, match="over an updating input"):
        GroupAggStage(updating)
