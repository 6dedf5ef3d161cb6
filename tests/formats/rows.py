"""Hypothesis strategies for rows of a Flink row type, in the oracle's value model."""

from __future__ import annotations

from decimal import Context, Decimal

from hypothesis import strategies as st

from accelerator.formats import types
from accelerator.formats.types import TIMESTAMP_LTZ

_EXACT = Context(prec=100)
INT_RANGES = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
NANOS_PER_DAY = 86_400_000_000_000
#: Timestamps as Arrow holds them (int64 nanoseconds: 1677-09-21 .. 2262-04-11), weighted to
#: whole seconds and milliseconds as real data is.
TIMESTAMPS = st.one_of(
    st.integers(-(2 ** 63), 2 ** 63 - 1),
    st.integers(-9_223_372_036, 9_223_372_035).map(lambda s: s * 1_000_000_000),
    st.integers(-9_223_372_036_854, 9_223_372_036_853).map(lambda ms: ms * 1_000_000),
    st.sampled_from([0, -1, 951_782_400_000_000_000, 1_582_934_400_123_000_000, -86_400_000_000_000]),
)


def _decimal(precision: int, scale: int):
    bound = 10 ** precision - 1
    edges = st.sampled_from([0, bound, -bound, 1, -1, 10 ** scale, 10 ** (precision - 1)])
    return st.one_of(edges, st.integers(-bound, bound)).map(lambda u: Decimal(u).scaleb(-scale, _EXACT))


def values(t: types.DataType):
    """Values of `t`, None included when `t` is nullable."""
    strategy = _non_null(t)
    return st.one_of(st.none(), strategy) if t.nullable else strategy


def _non_null(t: types.DataType):
    root = t.root
    if root == "BOOLEAN":
        return st.booleans()
    if root in INT_RANGES:
        bits = INT_RANGES[root]
        return st.integers(-(2 ** bits), 2 ** bits - 1)
    if root == "FLOAT":
        return st.floats(width=32)
    if root == "DOUBLE":
        return st.one_of(st.floats(), st.integers(-10 ** 8, 10 ** 8).map(lambda i: i / 100))
    if root == "DECIMAL":
        return _decimal(t.precision, t.scale)
    if root in ("CHAR", "VARCHAR"):
        return st.one_of(st.text(max_size=12), st.text(st.characters(max_codepoint=0x7F), max_size=8))
    if root in ("BINARY", "VARBINARY"):
        return st.binary(max_size=12)
    if root == "DATE":
        return st.one_of(st.integers(-719_528, 2_932_896), st.integers(-1_000_000, 4_000_000))
    if root == "TIME":
        return st.integers(0, 86_399_999)
    if root in ("TIMESTAMP", TIMESTAMP_LTZ):
        return TIMESTAMPS
    if root == "ARRAY":
        return st.lists(values(t.children[0]), max_size=4)
    if root == "MAP":
        return st.dictionaries(st.text(max_size=6), values(t.children[1]), max_size=4).map(
            lambda d: list(d.items()))
    if root == "ROW":
        return st.tuples(*[values(f.type) for f in t.fields])
    raise ValueError(f"no strategy for {t.serializable()}")


def rows(row_type: types.DataType, min_size: int, max_size: int):
    return st.lists(_non_null(row_type), min_size=min_size, max_size=max_size)
