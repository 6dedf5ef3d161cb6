"""The group aggregate's MIN/MAX over strings, timestamps, dates, times and booleans and its
TINYINT/SMALLINT sums run in one pass over a batch sorted by key: a batch with a hot key must
answer what the same rows answer one per batch, and what `GroupAggFunction` emits row by row with
Flink's own comparison and arithmetic (`java_semantics`, in the JVM): +I on a key's first row, -U/+U
when a value changed, nothing when none did."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from test_group_agg_emission import stage, update

# Flink's comparison and arithmetic in the JVM, shared with the window aggregate's tests.
sys.path.insert(0, str(Path(__file__).parent.parent / "windowagg"))
import java_semantics as java  # noqa: E402

from accelerator.formats import timestamps  # noqa: E402

STRINGS = ["", "a", "ab", "\x7f", "\u00e9", "\ue000", "\uffff", "\U0001f600", "a\U0001f600", "z"]
#: (argument type, accumulator type, java_semantics root, random operand).
TYPES = {
    "VARCHAR(2147483647)": ("VARCHAR(2147483647)", "VARCHAR",
                            lambda rng: STRINGS[rng.integers(len(STRINGS))] + ("x" if rng.random() < 0.3 else "")),
    "TIMESTAMP(9)": ("TIMESTAMP(9)", "TIMESTAMP",
                     lambda rng: (int(rng.choice([-62_135_596_800_000, -1, 0, 9_223_372_036_855, 253_402_300_799_999,
                                                  int(rng.integers(-10**12, 10**13))])), int(rng.integers(0, 3)) * 999)),
    "DATE": ("DATE", "DATE", lambda rng: int(rng.integers(-719_162, 2_932_896))),
    "TIME(3)": ("TIME(0)", "TIME", lambda rng: int(rng.integers(0, 86_400_000))),
    "BOOLEAN": ("BOOLEAN", "BOOLEAN", lambda rng: bool(rng.random() < 0.5)),
}


def operands_column(arg_type: str, values: list) -> list:
    """The operands as `update` builds the column from: timestamps as their (millis, nanos) parts,
    DATE and TIME as their int."""
    if arg_type.startswith("TIMESTAMP"):
        return [None if v is None else {timestamps.MILLIS: v[0], timestamps.NANOS: v[1]} for v in values]
    return values


def as_python(value, arg_type: str):
    if isinstance(value, dict):
        return value[timestamps.MILLIS], value[timestamps.NANOS]
    if arg_type == "DATE" and value is not None:
        return value.toordinal() - 719_163
    if arg_type == "TIME(3)" and value is not None:
        return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.microsecond // 1000
    return value


def random_rows(rng, make, n: int) -> tuple[list[str], list]:
    keys = [("hot" if rng.random() < 0.5 else f"k{rng.integers(20)}") for _ in range(n)]
    return keys, [None if rng.random() < 0.1 else make(rng) for _ in range(n)]


def model(keys: list[str], values: list, root: str) -> list[tuple]:
    """GroupAggFunction row by row for MIN(x), MAX(x): +I on a key's first row, -U/+U on change."""
    held: dict[str, tuple] = {}
    out = []
    for row, (k, x) in enumerate(zip(keys, values)):
        fresh = k not in held
        before = held.get(k, (None, None))
        after = (java.min_of([x], before[0], type_root=root), java.max_of([x], before[1], type_root=root))
        held[k] = after
        if fresh:
            out.append((row, 0, *after))
        elif after != before:
            out += [(row, 1, *before), (row, 2, *after)]
    return out


def run(s, arg_type: str, keys: list[str], values: list) -> list[tuple]:
    return [(r[0], r[1], *(as_python(v, arg_type) for v in r[2:]))
            for r in update(s, keys, operands_column(arg_type, values))]


@pytest.mark.parametrize("arg_type", list(TYPES))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_batch_with_a_hot_key_answers_the_rows_one_by_one_and_flinks_comparison(arg_type, seed):
    acc, root, make = TYPES[arg_type]
    functions = [("min", acc), ("max", acc)]
    keys, values = random_rows(np.random.default_rng(seed), make, 300)
    whole = run(stage(arg_type, functions), arg_type, keys, values)
    single, one_by_one = stage(arg_type, functions), []
    for row in range(len(keys)):
        one_by_one += [(row,) + r[1:] for r in run(single, arg_type, keys[row:row + 1], values[row:row + 1])]
    assert whole == one_by_one
    assert whole == model(keys, values, root)
    assert sum(1 for k in keys if k == "hot") > 100


@pytest.mark.parametrize("root", ["TINYINT", "SMALLINT"])
def test_narrow_sums_wrap_in_their_own_width_as_the_generated_cast_does(root):
    limit = 127 if root == "TINYINT" else 32_767
    rng = np.random.default_rng(7)
    keys = [("hot" if rng.random() < 0.6 else f"k{rng.integers(5)}") for _ in range(200)]
    values = [None if rng.random() < 0.1 else int(rng.choice([limit, -limit - 1, int(rng.integers(-limit, limit))]))
              for _ in range(200)]
    whole = update(stage(root, [("sum", root)]), keys, values)
    held: dict[str, int | None] = {}
    expected = []
    for row, (k, x) in enumerate(zip(keys, values)):
        fresh = k not in held
        before = held.get(k)
        after = java.sum_of(root, [x], start=before)
        held[k] = after
        if fresh:
            expected.append((row, 0, after))
        elif after != before:
            expected += [(row, 1, before), (row, 2, after)]
    assert whole == expected
    assert any(r[2] is not None and r[1] == 2 and abs(r[2]) > limit // 2 for r in whole)
