"""Keeping the first row on processing time and the last on event time run in one pass over a
batch sorted by key (`windowagg.segments`): a batch with a hot key, equal and decreasing rowtimes
and NULL keys must answer exactly what its rows answer one per batch, where each call decides one
row against the kept one and nothing runs across rows, and a row-by-row model of stock's rule."""

from __future__ import annotations

import numpy as np
import pytest

from test_dedup_choice import stage, update

I, UB, UA = 0, 1, 2


def random_rows(seed: int, n: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    keys = [("hot" if rng.random() < 0.4 else None if rng.random() < 0.05 else f"k{rng.integers(30)}")
            for _ in range(n)]
    # Rowtimes from a small range: many ties and many rows older than the kept one.
    return [(k, float(i), int(rng.integers(0, 40))) for i, k in enumerate(keys)]


def one_by_one(s, rows: list[tuple]) -> list[tuple]:
    return [(i,) + out[1:] for i, row in enumerate(rows) for out in update(s, [row])]


def last_row_model(rows: list[tuple], update_before: bool, insert: bool) -> list[tuple]:
    """RowTimeDeduplicateFunction row by row: replace when no row is kept or rowtime >= the kept one's."""
    kept: dict = {}
    out = []
    for i, (k, v, t) in enumerate(rows):
        held = kept.get(k)
        if held is not None and t < held[2]:
            continue
        kept[k] = (k, v, t)
        if not (update_before or insert):
            out.append((i, UA, k, v, t))
        elif held is None:
            out.append((i, I, k, v, t))
        else:
            out += ([(i, UB) + held] if update_before else []) + [(i, UA, k, v, t)]
    return out


@pytest.mark.parametrize("update_before,insert", [(True, True), (False, True), (False, False)])
@pytest.mark.parametrize("seed", [1, 2])
def test_last_row_on_event_time_in_one_batch_answers_as_row_by_row(seed, update_before, insert):
    rows = random_rows(seed, 300)
    whole = update(stage("rowtime", "last", update_before, insert), rows)
    assert whole == one_by_one(stage("rowtime", "last", update_before, insert), rows)
    assert whole == last_row_model(rows, update_before, insert)
    assert sum(1 for k, _, _ in rows if k == "hot") > 80


def test_last_row_on_event_time_continues_from_the_row_kept_in_an_earlier_batch():
    rows = random_rows(3, 200)
    split = stage("rowtime", "last")
    first, second = update(split, rows[:100]), update(split, rows[100:])
    assert first + [(r[0] + 100,) + r[1:] for r in second] == last_row_model(rows, True, True)


def test_first_row_on_processing_time_in_one_batch_answers_as_row_by_row():
    rows = random_rows(4, 300)
    whole = update(stage("proctime", "first"), rows)
    assert whole == one_by_one(stage("proctime", "first"), rows)
    seen, expected = set(), []
    for i, (k, v, t) in enumerate(rows):
        if k not in seen:
            seen.add(k)
            expected.append((i, I, k, v, t))
    assert whole == expected
