"""The join stage with a non-equi condition, against a row-at-a-time model of what Flink 2.2.1's
StreamingJoinOperator does (docs/design/stateful-joins.md): per input row, in arrival order, the
row is stored on its side, then each row its key holds on the other side (RocksDB order: shorter
serialized rows first, then by unsigned bytes; a row that arrived n times n times) is offered to
`JoinConditionWithNullFilters.apply(left row, right row)`, and the pair is emitted only when the
condition is TRUE: FALSE and NULL emit nothing. The condition here is `a > b` (left BIGINT, right
BIGINT, both nullable), in the Substrait form the planner's registry writes for a Calc's `>`."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import accelerator.sidecar.stages  # noqa: F401  (registers the kinds)
from accelerator.join.stage import JoinStage
from accelerator.sidecar.stages import DescriptorError

BUDGET = str(1 << 30).encode()
L, R = 0, 1
LEFT = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "a", "type": "BIGINT"}]
RIGHT = [{"name": "k0", "type": "VARCHAR(2147483647)"}, {"name": "b", "type": "BIGINT"}]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}]


def _nullable(kind: str) -> dict:
    return {kind: {"nullability": "NULLABILITY_NULLABLE"}}


def _field(i: int) -> dict:
    return {"selection": {"directReference": {"structField": {"field": i} if i else {}}, "rootReference": {}}}


#: `$1 > $3` over the joined row (k, a, k0, b) as JoinCondition exports it: read `decoded`, project the one BOOLEAN.
A_GREATER_THAN_B = {
    "extensions": [{"extensionFunction": {"functionAnchor": 1, "name": "gt", "extensionUrnReference": 1}}],
    "extensionUrns": [{"extensionUrnAnchor": 1, "urn": "extension:io.substrait:functions_comparison"}],
    "relations": [{"root": {"input": {"project": {
        "common": {"emit": {"outputMapping": [4]}},
        "input": {"read": {"baseSchema": {"names": ["k", "a", "k0", "b"], "struct": {
            "types": [_nullable("string"), _nullable("i64"), _nullable("string"), _nullable("i64")],
            "nullability": "NULLABILITY_REQUIRED"}}, "namedTable": {"names": ["decoded"]}}},
        "expressions": [{"scalarFunction": {"functionReference": 1, "outputType": _nullable("bool"),
                                            "arguments": [{"value": _field(1)}, {"value": _field(3)}]}}]}},
        "names": ["$match"]}}],
}


def descriptor(condition: dict | None = None) -> dict:
    nullable = [dict(f) for f in LEFT + RIGHT]
    out = {"name": "j", "join_type": "INNER", "left_arity": len(LEFT),
           "input": {"fields": TRANSPORT + nullable}, "output": {"fields": LEFT + RIGHT},
           "state": {"format": 3, "fingerprint": "ab" * 32, "backend": "rocksdb"}}
    if condition is not None:
        out["condition"] = condition
    return out


def with_condition() -> dict:
    return descriptor({"column": "$match", "plan": A_GREATER_THAN_B})


def update(s: JoinStage, rows: list[tuple]) -> list[tuple]:
    """`rows` are (side, key, value, order bytes); answers (batch row, kind, k, a, k0, b) in order."""
    def column(side: int, at: int) -> pa.Array:
        return pa.array([r[at] if r[0] == side else None for r in rows], pa.int64() if at == 2 else pa.string())
    batch = pa.RecordBatch.from_arrays(
        [pa.array([r[1].encode() for r in rows], pa.binary()), pa.array([sum(r[1].encode()) % 128 for r in rows], pa.int32()),
         pa.array([r[0] for r in rows], pa.int8()), pa.array([r[3] for r in rows], pa.binary()),
         column(L, 1), column(L, 2), column(R, 1), column(R, 2)], schema=s.spec.input_schema)
    metadata = {b"accelerator.call": b"update", b"accelerator.state_budget": BUDGET}
    return [tuple(r.values()) for r in s.process(batch.replace_schema_metadata(metadata)).to_pylist()]


def test_a_pair_is_emitted_only_where_the_condition_is_true_null_on_either_side_emits_nothing():
    s = JoinStage(with_condition())
    # Right rows b = 5, NULL, 1, 9 (orders of one length, so by bytes: \x01 .. \x04).
    update(s, [(R, "x", 5, b"\x01"), (R, "x", None, b"\x02"), (R, "x", 1, b"\x03"), (R, "x", 9, b"\x04")])
    # a = 6 beats 5 and 1 (not NULL, not 9), in the right side's order.
    assert update(s, [(L, "x", 6, b"L6")]) == [(0, 0, "x", 6, "x", 5), (0, 0, "x", 6, "x", 1)]
    # A NULL a makes every pair NULL: nothing, but the row is stored (it still counts on its side).
    assert update(s, [(L, "x", None, b"LN")]) == []
    # The right row 0 arriving later joins the stored lefts the condition accepts: a = 6 only.
    assert update(s, [(R, "x", 0, b"\x00")]) == [(0, 0, "x", 6, "x", 0)]


def test_without_a_condition_section_every_key_match_is_emitted():
    s = JoinStage(descriptor())
    update(s, [(R, "x", 5, b"\x01")])
    assert update(s, [(L, "x", 1, b"L1")]) == [(0, 0, "x", 1, "x", 5)]


def test_a_condition_section_without_its_plan_is_refused():
    with pytest.raises(DescriptorError, match="condition section"):
        JoinStage(descriptor({"column": "$match"}))


def _model(stream: list[tuple]) -> list[tuple]:
    """Stock's rule, one row at a time: store, then offer each held row of the other side (RocksDB
    order, each as often as it arrived) to the condition `a > b`; None (NULL) emits nothing."""
    held = {L: {}, R: {}}  # side -> key -> {order: [count, value]}
    out = []
    for side, key, value, order in stream:
        rows = held[side].setdefault(key, {})
        rows.setdefault(order, [0, value])[0] += 1
        other = held[1 - side].get(key, {})
        for other_order in sorted(other, key=lambda o: (len(o), o)):
            count, other_value = other[other_order]
            a, b = (value, other_value) if side == L else (other_value, value)
            if a is not None and b is not None and a > b:
                out += [(key, a, key, b)] * count
    return out


@pytest.mark.parametrize("batch", [1, 7, 10_000])
def test_a_random_stream_gives_the_models_pairs_for_every_batch_size(batch):
    rng = random.Random(7)
    pools = {side: [(rng.choice("xyz"), rng.choice([None, *range(-3, 4)])) for _ in range(10)] for side in (L, R)}
    stream = []
    for _ in range(600):
        side = rng.choice((L, R))
        key, value = rng.choice(pools[side])
        # The order bytes are the row's identity, as the binary row's are (equal rows, equal bytes),
        # of several lengths ("None", "-3", "3"), so the length-first order shows.
        stream.append((side, key, value, f"{key}:{value}".encode()))
    model = _model(stream)
    s = JoinStage(with_condition())
    got = []
    for start in range(0, len(stream), batch):
        got += [r[2:] for r in update(s, stream[start:start + batch])]
    assert got == model
    # The condition both keeps and rejects pairs of this stream, with NULLs on both sides.
    assert 100 < len(model) < len(_model_without_condition(stream))


def _model_without_condition(stream: list[tuple]) -> list[tuple]:
    held = {L: {}, R: {}}
    out = []
    for side, key, _, order in stream:
        held[side].setdefault(key, {}).setdefault(order, 0)
        held[side][key][order] += 1
        out += [key] * sum(held[1 - side].get(key, {}).values())
    return out
