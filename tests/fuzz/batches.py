"""The shuffled batches of test_batch_fuzz: 16 to 1,000 message values built from a seed, so that
the seed a failure names rebuilds its batch (`batch`).

A batch draws, with repeats, from a format's corpus messages under 4 KB (tombstones included) and
from fresh mutations of them (`mutations.mutate`), in one of three shapes: only messages Flink
reads ("readable": compared row by row), those plus 1 to 3 it rejects ("few-bad": the batch must
fail on the first), or any number of those ("any"). Which messages are readable is our decoder's verdict on
each alone, which the corpus test holds equal to Flink's; it only shapes the mix, what a batch
must decode to is always Flink's. Messages our decoder refuses on their own (it cannot reproduce
Flink's result) are left out: one would end every batch it is in, and on some Flink never returns.
"""

from __future__ import annotations

import functools
import random

from corpus_files import load
from fuzz_targets import FAILED, TARGETS
from mutations import mutate

SHAPES = ("readable", "few-bad", "any")
SIZES = (16, 1000)
MAX_MESSAGE = 4096


def _sort(format_name: str, option_set: str, messages) -> tuple[list, list]:
    """(readable, bad) of the messages by our decoder's outcome on each alone, refused ones dropped."""
    target = TARGETS[format_name]
    readable, bad = [], []
    for message in messages:
        outcome = target.ours(option_set, message)
        if "refused" not in outcome:
            (bad if outcome == FAILED else readable).append(message)
    return readable, bad


@functools.cache
def corpus(format_name: str, option_set: str) -> tuple[list, list]:
    """(readable, bad) corpus messages under MAX_MESSAGE bytes."""
    small = [m.value for m in load(format_name) if m.value is None or len(m.value) < MAX_MESSAGE]
    return _sort(format_name, option_set, small)


def batch(format_name: str, option_set: str, shape: str, seed: int) -> list[bytes | None]:
    rng = random.Random(seed)
    readable, bad = (list(pool) for pool in corpus(format_name, option_set))
    sources = [m for m in readable + bad if m is not None]
    mutants = [mutate(rng.choice(sources), rng.randint, rng.choice, TARGETS[format_name].splices)
               for _ in range(rng.randint(0, 100))]
    more_readable, more_bad = _sort(format_name, option_set, mutants)
    readable += more_readable
    bad += more_bad
    size = rng.randint(*SIZES)
    bad_count = (0 if shape == "readable" or not bad else rng.randint(1, 3) if shape == "few-bad"
                 else rng.randint(1, size))
    messages = rng.choices(readable, k=size - bad_count) + rng.choices(bad, k=bad_count)
    rng.shuffle(messages)
    return messages
