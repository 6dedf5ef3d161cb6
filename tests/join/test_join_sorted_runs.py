"""`join/sorted_runs`: the two-run index answers a key's entries as a list of all entries added
does, across merges of the recent run into the main one; `appended` grows an array without
changing what earlier views of it hold."""

from __future__ import annotations

import numpy as np
import pytest

from accelerator.join import sorted_runs
from accelerator.join.sorted_runs import SortedRuns, appended


@pytest.mark.parametrize("seed", range(5))
def test_values_of_keys_are_every_entry_added_with_those_keys_across_merges(monkeypatch, seed):
    monkeypatch.setattr(sorted_runs, "MIN_RECENT", 7)
    rng = np.random.default_rng(seed)
    runs, entries, merges = SortedRuns(np.uint64), [], 0
    for _ in range(200):
        keys = rng.integers(0, 40, int(rng.integers(0, 25))).astype(np.uint64)
        values = np.arange(len(entries), len(entries) + len(keys))
        recent_before = len(runs.runs[1][0])
        runs.insert(keys, values)
        merges += len(runs.runs[1][0]) < recent_before + len(keys)
        entries += list(zip(keys.tolist(), values.tolist()))
        asked = np.unique(rng.integers(0, 45, 6)).astype(np.uint64)
        want = sorted(v for k, v in entries if k in set(asked.tolist()))
        got = [int(v) for lo, hi, values in runs.ranges(asked) for a, b in zip(lo, hi) for v in values[a:b]]
        assert sorted(got) == want
        assert len(runs) == len(entries)
        for keys_of_run, _ in runs.runs:
            assert (np.diff(keys_of_run.astype(np.float64)) >= 0).all()
    assert merges > 3


def test_appended_keeps_earlier_views_and_the_values():
    grown, views = np.zeros(0, dtype=np.int64), []
    for i in range(200):
        before = grown
        grown = appended(grown, np.full(i % 7, i))
        views.append((before, before.tolist()))
        assert grown[:len(before)].tolist() == before.tolist() and grown[len(before):].tolist() == [i] * (i % 7)
    assert all(view.tolist() == held for view, held in views)
    assert appended(grown, np.zeros(0, dtype=np.int64)) is grown
