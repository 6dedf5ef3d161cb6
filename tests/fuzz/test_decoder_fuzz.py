"""Fuzzing each accelerated format's decoder against stock Flink's (`fuzz_targets.TARGETS`: json,
avro, csv, raw, protobuf).

1. The corpus kept in the repo (`corpus/<format>/`, written by `make_<format>_corpus.py`:
   truncated messages, wrong types and wire types, wrong union branches, deep nesting, huge
   strings, counts and length prefixes, invalid UTF-8, NaN text, random bytes, broken structure)
   is decoded by our decoder in a subprocess, under every option set: it must exit normally (no
   crash), within a time bound (no hang), never raise anything but the format's own error, and
   take at most PER_MESSAGE_S per message. Each outcome must equal stock Flink's with the same
   options: the same rows, or a failure where Flink fails; with ignore-parse-errors a message
   Flink cannot read is skipped and counted. The only other outcome allowed is a loud refusal
   where Flink's result is one the accelerator cannot hold (the job then fails, naming the
   remedy), never a different row.
2. Hypothesis mutates corpus messages (bytes flipped, cut, spliced, repeated) and checks the same.
Whole shuffled batches of corpus and mutated messages are fuzzed in test_batch_fuzz.py.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from corpus_files import load  # noqa: E402
from fuzz_targets import FAILED, TARGETS  # noqa: E402
from mutations import mutate  # noqa: E402

HERE = Path(__file__).parent
#: Messages on which our decoder is known to differ from Flink's: why, and under which option sets.
#: Each is a bug to fix in the decoder; the test fails once one is fixed, so the entry goes too.
KNOWN_DIVERGENCES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {}
PER_MESSAGE_S = 10.0  # generous: the slowest corpus messages take 1-3 s on a loaded shared core
WORKER_TIMEOUT_S = 900


#: Every (format, option set) pair the corpus is decoded under.
CASES = [(f, o) for f in sorted(TARGETS) for o in TARGETS[f].option_sets]
#: The share of a corpus our decoder may refuse under one option set (besides the refusals a
#: target documents as by design, `FuzzTarget.refused_by_design`).
MAX_REFUSED = 0.05


@functools.cache
def decoded(format_name: str):
    """(target, corpus by id, our outcomes by (id, option set)) from one worker run."""
    target = TARGETS[format_name]
    result = subprocess.run([sys.executable, str(HERE / "decode_worker.py"), target.format], capture_output=True,
                            text=True, timeout=WORKER_TIMEOUT_S)
    assert result.returncode == 0, f"the decoder process died ({result.returncode}): {result.stderr[-3000:]}"
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    corpus = {m.id: m for m in load(target.format)}
    assert corpus, f"no corpus for {target.format}: run tests/fuzz/make_{target.format}_corpus.py"
    assert len(lines) == len(corpus) * len(target.option_sets)
    return target, corpus, {(r["id"], r["options"]): r for r in lines}


@pytest.mark.parametrize("format_name, option_set", CASES)
def test_every_option_set_is_one_the_accelerator_takes(format_name, option_set):
    """A setting the accelerator leaves to stock Flink would be fuzzed for nothing."""
    assert TARGETS[format_name].supported(option_set) is None


@pytest.mark.parametrize("format_name", sorted(TARGETS))
def test_the_decoder_never_crashes_or_hangs_on_the_corpus(format_name):
    _, _, ours = decoded(format_name)
    crashed = {k: r["outcome"]["crashed"] for k, r in ours.items() if "crashed" in r["outcome"]}
    assert crashed == {}
    slow = {k: r["seconds"] for k, r in ours.items() if r["seconds"] > PER_MESSAGE_S}
    assert slow == {}


@pytest.mark.parametrize("format_name, option_set", CASES)
def test_every_corpus_message_decodes_as_stock_flink_decodes_it(format_name, option_set):
    target, corpus, ours = decoded(format_name)
    refused = {i for i in corpus if "refused" in ours[(i, option_set)]["outcome"]}
    # Refused messages never reach the oracle: on some of them Flink's decoder never returns.
    undesigned = {i for i in refused if not target.refused_by_design(option_set, corpus[i].value)}
    assert len(undesigned) <= MAX_REFUSED * len(corpus), f"the decoder refuses too much: {sorted(undesigned)[:20]}"
    ids = [i for i in corpus if i not in refused]
    flink = dict(zip(ids, target.flinks(option_set, [corpus[i].value for i in ids])))
    differ = {}
    for i in ids:
        got = dict(ours[(i, option_set)]["outcome"])
        got.pop("skipped", None)
        if got != flink[i]:
            differ[i] = (got, flink[i])
    known = {i for i, (_, option_sets) in KNOWN_DIVERGENCES.get(format_name, {}).items()
             if i in corpus and option_set in option_sets}
    assert known <= set(differ), f"fixed, remove from KNOWN_DIVERGENCES: {sorted(known - set(differ))}"
    unknown = {i: d for i, d in differ.items() if i not in known}
    assert unknown == {}, f"{len(unknown)} of {len(ids)} messages differ from stock Flink: {_short(unknown)}"


@pytest.mark.parametrize("format_name", [f for f in sorted(TARGETS) if "ignore-parse-errors" in TARGETS[f].option_sets])
def test_ignore_parse_errors_never_fails_and_counts_the_messages_it_skips(format_name):
    """Under ignore-parse-errors an unreadable message is skipped and counted (or, for a bad
    field, kept with that field null, as Flink does); it never fails the batch."""
    target, corpus, ours = decoded(format_name)
    unreadable = {i for i in corpus if ours[(i, "default")]["outcome"] == FAILED}
    assert len(unreadable) >= len(corpus) // 5, "the corpus must hold many unreadable messages for this to mean much"
    skipped = 0
    for i in unreadable:
        outcome = ours[(i, "ignore-parse-errors")]["outcome"]
        assert outcome != FAILED, i
        if "rows" in outcome and not outcome["rows"]:
            assert outcome["skipped"] == 1, (i, outcome)
            skipped += 1
    assert skipped >= len(unreadable) // 10


# -- hypothesis: mutations of corpus messages --------------------------------------------------------

_SMALL = {f: [m.value for m in load(f) if m.value is not None and len(m.value) < 4096] for f in TARGETS}


@st.composite
def mutated(draw, format_name: str) -> bytes:
    return mutate(draw(st.sampled_from(_SMALL[format_name])), lambda a, b: draw(st.integers(a, b)),
                  lambda s: draw(st.sampled_from(s)), TARGETS[format_name].splices)


@pytest.mark.parametrize("format_name, option_set", [(f, o) for f in sorted(TARGETS)
                                                     for o in TARGETS[f].mutated_option_sets()])
@settings(max_examples=15, deadline=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_mutated_messages_decode_as_stock_flink_decodes_them(format_name, option_set, data):
    target = TARGETS[format_name]
    batch = data.draw(st.lists(mutated(format_name), min_size=20, max_size=40))
    ours = []
    for message in batch:
        started = time.perf_counter()
        ours.append(target.ours(option_set, message))
        assert time.perf_counter() - started < PER_MESSAGE_S, message
    kept = [(m, o) for m, o in zip(batch, ours) if "refused" not in o]
    for (message, got), want in zip(kept, target.flinks(option_set, [m for m, _ in kept])):
        got = dict(got)
        got.pop("skipped", None)
        assert got == want, message


def _short(differ: dict, limit: int = 8) -> str:
    return "; ".join(f"{i}: ours {str(a)[:200]} vs Flink {str(b)[:200]}" for i, (a, b) in list(differ.items())[:limit])
