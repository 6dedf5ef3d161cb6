"""A batch where one key holds most rows (Nexmark's hot auction), most of them past its full top N
(`rank.topn` and its native kernel skip those): it must answer exactly what the same rows answer
one per batch and what AppendOnlyTopNFunction's rules give row by row."""

from __future__ import annotations

import numpy as np
import pytest

from test_topn_choice import stage, update

UB, UA, I = 1, 2, 0


def random_rows(seed: int, n: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    # Few distinct prices, so ties with held rows are common; half the rows on one key.
    return [("hot" if rng.random() < 0.5 else f"k{rng.integers(8)}", int(rng.integers(0, 60)), f"r{i}")
            for i in range(n)]


def model(rows: list[tuple], n: int) -> list[tuple]:
    """Top n by p descending, ties after the rows held, with the row number and update-befores."""
    held: dict[str, list[tuple]] = {}
    out = []
    for i, row in enumerate(rows):
        top = held.setdefault(row[0], [])
        rank = 1 + sum(1 for h in top if h[1] >= row[1])
        if rank > n:
            continue
        new = top[:rank - 1] + [row] + top[rank - 1:]
        for place in range(rank, min(len(top), n) + 1):
            out += [(i, UB, *top[place - 1], place), (i, UA, *new[place - 1], place)]
        if len(top) < n:
            out.append((i, I, *new[len(top)], len(top) + 1))
        held[row[0]] = new[:n]
    return out


@pytest.mark.parametrize("n", [2, 10])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_hot_key_in_one_batch_answers_as_row_by_row(seed, n):
    rows = random_rows(seed, 500)
    whole = update(stage(n, [("p", False, False)]), rows)
    single, one_by_one = stage(n, [("p", False, False)]), []
    for i, row in enumerate(rows):
        one_by_one += [(i,) + r[1:] for r in update(single, [row])]
    assert whole == one_by_one
    assert whole == model(rows, n)


def test_a_full_key_continues_from_an_earlier_batch():
    rows = random_rows(3, 400)
    split = stage(3, [("p", False, False)])
    first, second = update(split, rows[:150]), update(split, rows[150:])
    assert first + [(r[0] + 150,) + r[1:] for r in second] == model(rows, 3)
