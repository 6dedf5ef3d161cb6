"""Many keys per window end, fired batch after batch (Nexmark q5's HOP count per auction): keys
come and go, so the state numbers and frees keys and window ends over and over. Each fire must
answer exactly the windows HOP's definition gives (a window ending at e counts the key's rows with
e - size <= t < e), in window-end order, once each; and once every window fired the state holds
nothing."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
from window_agg_client import descriptor

COUNT_STAR = {"function": "count1", "arg": None, "acc": "BIGINT NOT NULL"}
SIZE, SLIDE, DELAY = 10_000, 2_000, 4_000


def stream(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Keys (a few hot, the rest drifting so that old keys leave and new ones come), in time order."""
    rng = np.random.default_rng(seed)
    t = np.sort(rng.integers(0, 60_000, rows))
    drifting = 5 + (t // 100) + rng.integers(0, 300, rows)
    return np.where(rng.random(rows) < 0.3, rng.integers(0, 5, rows), drifting), t


def expected_windows(keys: np.ndarray, t: np.ndarray) -> Counter:
    """Every non-empty HOP window per key, by definition: (key, end) -> rows with end - size <= t < end."""
    windows = Counter()
    for key, time in zip(keys.tolist(), t.tolist()):
        last_end = (time // SLIDE + 1) * SLIDE
        for end in range(last_end, time + SIZE + 1, SLIDE):
            if end - SIZE <= time < end:
                windows[(key, end)] += 1
    return windows


def test_batches_of_many_keys_fire_every_hop_window_once_in_window_end_order_and_free_the_state(sidecar):
    stage = sidecar.open(descriptor([COUNT_STAR], size_ms=SIZE, slide_ms=SLIDE))
    keys, t = stream(20_000, seed=5)
    fired, watermark = [], -2 ** 63
    for start in range(0, len(t), 500):
        k, time = keys[start:start + 500], t[start:start + 500]
        batch = pa.RecordBatch.from_arrays(
            [pa.array([str(x).encode() for x in k.tolist()], pa.binary()), pa.array(k % 128, pa.int32()),
             pa.array(time, pa.int64())], schema=stage.input_schema)
        assert stage.update(batch, progress=watermark) == 0
        watermark = int(time[-1]) - DELAY
        stage.flush(watermark)
        answer = stage.fire(watermark)
        ends = [w["$window_end"] for w in answer]
        assert ends == sorted(ends)
        assert all(end - 1 <= watermark for end in ends)
        fired += answer
    stage.flush(watermark)
    fired += stage.fire(2 ** 62)

    got = Counter({(int(w["$key"]), w["$window_end"]): w["count10"]
                   for w in fired})
    assert len(got) == len(fired)  # no window fired twice
    assert got == expected_windows(keys, t)
    state = stage.snapshot()
    assert state.num_rows == 0
    assert int(state.schema.metadata[b"accelerator.state_entries"]) == 0
