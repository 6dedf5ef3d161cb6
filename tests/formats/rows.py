"""Hypothesis strategies for rows of a Flink row type, in the oracle's value model."""

from __future__ import annotations

from decimal import Context, Decimal

from hypothesis import strategies as st

from accelerator.formats import types
from accelerator.formats.types import TIMESTAMP_LTZ

_EXACT = Context(prec=100)
INT_RANGES = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
NANOS_PER_DAY = 86_400_000_000_000
#: Days since 1970-01-01 of 0000-01-01 and of 9999-12-31.
FIRST_DAY, LAST_DAY = -719_528, 2_932_896
#: Nanoseconds since the epoch of the first and last instant of the years 0000-9999.
FIRST_NANO, LAST_NANO = FIRST_DAY * NANOS_PER_DAY, (LAST_DAY + 1) * NANOS_PER_DAY - 1
#: Timestamps of the years 0000-9999 with nanosecond digits, weighted to whole seconds and
#: milliseconds as real data is, and to the edges (the range's ends, the epoch, a leap day).
TIMESTAMPS = st.one_of(
    st.integers(FIRST_NANO, LAST_NANO),
    st.integers(FIRST_NANO // 10 ** 9, LAST_NANO // 10 ** 9).map(lambda s: s * 1_000_000_000),
    st.integers(FIRST_NANO // 10 ** 6, LAST_NANO // 10 ** 6).map(lambda ms: ms * 1_000_000),
    st.sampled_from([0, -1, 1, 999_999, -1_000_000, FIRST_NANO, LAST_NANO, FIRST_NANO + 999_999,
                     951_782_400_000_000_000, 1_582_934_400_123_000_000, -86_400_000_000_000]),
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
        return st.one_of(st.integers(FIRST_DAY, LAST_DAY), st.integers(-1_000_000, 4_000_000))
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
