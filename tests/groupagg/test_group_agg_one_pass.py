"""Integer aggregates run in one pass over a batch sorted by key (`windowagg.segments`): a batch of
many rows per key, hot keys and wrapping sums included, must answer exactly what the same rows
answer one per batch (where each call folds one row into its key's accumulators, nothing
running), and a row-by-row model of Java's arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from test_group_agg_emission import stage, update

LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
INTEGERS = [("count1", "BIGINT NOT NULL"), ("count", "BIGINT NOT NULL"), ("sum", "BIGINT"),
            ("min", "BIGINT"), ("max", "BIGINT"), ("avg", "BIGINT"),
            ("count1", "BIGINT NOT NULL", "BIGINT NOT NULL", True), ("sum", "BIGINT", "BIGINT", True)]


def random_rows(seed: int, n: int) -> tuple[list[str], list, list]:
    rng = np.random.default_rng(seed)
    # Half the rows on one hot key, the rest over a few dozen keys.
    keys = [("hot" if rng.random() < 0.5 else f"k{rng.integers(40)}") for _ in range(n)]
    extremes = [LONG_MAX, LONG_MAX - 1, LONG_MIN, LONG_MIN + 1, 0]
    values = [None if rng.random() < 0.1 else int(rng.choice(extremes)) if rng.random() < 0.2
              else int(rng.integers(-1000, 1000)) for _ in range(n)]
    filters = [None if rng.random() < 0.1 else bool(rng.random() < 0.6) for _ in range(n)]
    return keys, values, filters


def java_long(x: int) -> int:
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def model(keys: list[str], values: list, filters: list) -> list[tuple]:
    """GroupAggFunction row by row: per key COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x), AVG(x)
    (long sum / count, truncating), COUNT(*) FILTER, SUM(x) FILTER; +I, then -U/+U on change."""
    held: dict[str, list] = {}
    out = []
    for row, (k, x, f) in enumerate(zip(keys, values, filters)):
        acc = held.get(k)
        fresh = acc is None
        if fresh:
            acc = held[k] = [0, 0, None, None, None, 0, 0, 0, None]  # ..., avg sum, avg count, ...
        before = value(acc)
        acc[0] += 1
        if x is not None:
            acc[1] += 1
            acc[2] = x if acc[2] is None else java_long(acc[2] + x)
            acc[3] = x if acc[3] is None else min(acc[3], x)
            acc[4] = x if acc[4] is None else max(acc[4], x)
            acc[5], acc[6] = java_long(acc[5] + x), acc[6] + 1
        if f:
            acc[7] += 1
            if x is not None:
                acc[8] = x if acc[8] is None else java_long(acc[8] + x)
        after = value(acc)
        if fresh:
            out.append((row, 0, *after))
        elif after != before:
            out += [(row, 1, *before), (row, 2, *after)]
    return out


def value(acc: list) -> tuple:
    count, total = acc[6], acc[5]
    average = None if count == 0 else java_long(int(abs(total) // count) * (1 if total >= 0 else -1))
    return (acc[0], acc[1], acc[2], acc[3], acc[4], average, acc[7], acc[8])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_batch_with_hot_keys_answers_what_the_rows_answer_one_by_one_and_what_java_computes(seed):
    keys, values, filters = random_rows(seed, 400)
    whole = update(stage("BIGINT", INTEGERS), keys, values, filters)
    one_by_one, single = [], stage("BIGINT", INTEGERS)
    for row in range(len(keys)):
        one_by_one += [(row,) + r[1:] for r in update(single, keys[row:row + 1], values[row:row + 1],
                                                       filters[row:row + 1])]
    assert whole == one_by_one
    assert whole == model(keys, values, filters)
    assert sum(1 for k in keys if k == "hot") > 150  # one key holds hundreds of rows in the batch


def test_int_sums_wrap_at_32_bits_and_extremes_hold_ties_in_one_pass():
    s = stage("INT", [("sum", "INT"), ("min", "INT"), ("max", "INT")])
    big = (1 << 31) - 1
    assert update(s, ["a", "b", "a", "a", "b"], [big, 5, 1, 1, 5]) == [
        (0, 0, big, big, big), (1, 0, 5, 5, 5), (2, 1, big, big, big), (2, 2, -(1 << 31), 1, big),
        (3, 1, -(1 << 31), 1, big), (3, 2, -(1 << 31) + 1, 1, big), (4, 1, 5, 5, 5), (4, 2, 10, 5, 5)]
