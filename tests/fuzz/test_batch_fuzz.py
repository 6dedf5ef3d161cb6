"""Fuzzing whole batches: shuffled batches of 16 to 1,000 messages (`batches`) decoded as the
sidecar decodes a batch, compared message by message with stock Flink's deserializer run over the
same batch in order (one deserializer, as a Kafka source subtask uses it).

In production one message Flink cannot read fails the batch (and the job), so a batch compares as:
- Flink reads every message: our rows, each with the message it came from, are Flink's rows of
  each message in turn; the null rows and messages skipped under ignore-parse-errors add up.
- Flink first fails on message k: our decoder fails the batch naming message k.
- Our decoder may instead refuse loudly on a message j (its remedy: run without the accelerator)
  if Flink reads every message before j.
The native kernels (json, avro) are also run alone on each batch: every message they vouch for
decodes to Flink's one row for it, bad neighbours or not (production drops their rows then).

CI runs a fixed set of CI_EXAMPLES batches per format, option set and shape; ACCELERATOR_FUZZ_BATCHES=N
(`make soak`) runs N random batches in all instead. A failure names the seed and shape that
rebuild its batch: `batches.batch(format, option set, shape, seed)`.
"""

from __future__ import annotations

import math
import os
import random
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats import FormatError, types
from accelerator.formats.json_decoder import UNREPRODUCIBLE_REMEDY
from accelerator.sidecar import segment_stage

sys.path.insert(0, str(Path(__file__).parent))
import avro_datums  # noqa: E402
import batches  # noqa: E402
from fuzz_target import rows_of  # noqa: E402
from fuzz_targets import FAILED, TARGETS  # noqa: E402

CASES = [(f, o, s) for f in sorted(TARGETS) for o in TARGETS[f].mutated_option_sets() for s in batches.SHAPES]
CI_EXAMPLES = 2
SOAK_EXAMPLES = int(os.environ.get("ACCELERATOR_FUZZ_BATCHES", "0"))
EXAMPLES = settings(max_examples=math.ceil(SOAK_EXAMPLES / len(CASES)) if SOAK_EXAMPLES else CI_EXAMPLES,
                    derandomize=not SOAK_EXAMPLES, deadline=None, phases=[Phase.generate], database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def decode(format_name: str, option_set: str, values: pa.Array):
    """The batch through the decoder the sidecar's segment stage makes from the shim's spec."""
    target = TARGETS[format_name]
    spec = {"format": format_name, "row_type": target.row_type_of(option_set),
            "options": target.our_options(option_set)}
    return segment_stage._decoder("fuzz", spec)(values)


def _first(flink: list[dict], failed: bool) -> int | None:
    """The first message Flink fails on (failed) or emits a null row for."""
    return next((i for i, f in enumerate(flink) if (f == FAILED if failed else f["nulls"])), None)


def _rows_by_message(flink: list[dict]) -> list[tuple[int, object]]:
    return [(i, row) for i, f in enumerate(flink) for row in f["rows"]]


@pytest.mark.parametrize("format_name, option_set, shape", CASES)
@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1))
def test_shuffled_batches_decode_as_stock_flink_decodes_them(format_name, option_set, shape, seed):
    target = TARGETS[format_name]
    messages = batches.batch(format_name, option_set, shape, seed)
    values = pa.array(messages, pa.binary())
    where = f"{format_name}/{option_set} batch of {len(messages)} ({shape}, seed {seed})"

    native = target.native_rows(option_set, values)
    if native is not None:
        vouched, rows = native
        assert len(rows) == len(vouched), where
        flink = target.flink_batch(option_set, [messages[i] for i in vouched])
        want = [f["rows"][0] if f != FAILED and f["nulls"] == 0 and len(f["rows"]) == 1 else f for f in flink]
        differ = next((i for i, a, b in zip(vouched, rows, want) if a != b), None)
        assert differ is None, f"{where}: the native kernel's row of message {differ} is not Flink's"

    try:
        ours = decode(format_name, option_set, values)
    except FormatError as e:
        if e.remedy == UNREPRODUCIBLE_REMEDY:  # a loud refusal: Flink must read every message before it
            first_bad = _first(target.flink_batch(option_set, messages[:e.row]), failed=True)
            assert first_bad is None, f"{where}: we refuse message {e.row}, Flink fails on {first_bad} first"
            return
        first_bad = _first(target.flink_batch(option_set, messages), failed=True)
        assert e.row == first_bad, f"{where}: we fail on message {e.row}, Flink on {first_bad}: {e}"
        return
    flink = target.flink_batch(option_set, messages)
    first_bad = _first(flink, failed=True)
    assert first_bad is None, f"{where}: Flink fails on message {first_bad}, we read the batch"

    kept = range(len(messages)) if ours.kept is None else ours.kept.to_pylist()
    got = list(zip(kept, rows_of(types.parse(target.row_type_of(option_set)), ours.batch)))
    want = _rows_by_message(flink)
    differ = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    assert got == want, (f"{where}: row {differ} (of {len(got)}; Flink {len(want)}) differs: "
                         f"ours {got[differ:differ + 1]} vs Flink {want[differ:differ + 1]}")
    null_rows = sum(f["nulls"] for f in flink)
    assert getattr(ours, "null_rows", 0) == null_rows, where
    if null_rows:
        assert ours.first_null_row == _first(flink, failed=False), where
    # A message that gave a null row counts as skipped; so may one that gave no row.
    nulled = sum(f["nulls"] > 0 for f in flink)
    assert nulled <= ours.skipped <= nulled + sum(not f["rows"] and not f["nulls"] for f in flink), where


def _compare(where: str, messages: list[bytes], option_set: str = "default") -> list[dict]:
    """Our decoder against Flink's deserializer over `messages`: Flink's outcomes, once ours match."""
    target = TARGETS["avro"]
    flink = target.flink_batch(option_set, messages)
    first_bad = _first(flink, failed=True)
    try:
        ours = decode("avro", option_set, pa.array(messages, pa.binary()))
    except FormatError as e:
        assert e.remedy != UNREPRODUCIBLE_REMEDY and e.row == first_bad, f"{where}: we fail on {e.row}: {e}"
        return flink
    assert first_bad is None, f"{where}: Flink fails on message {first_bad}, we read the batch"
    kept = range(len(messages)) if ours.kept is None else ours.kept.to_pylist()
    got = list(zip(kept, rows_of(types.parse(target.row_type_of(option_set)), ours.batch)))
    assert got == _rows_by_message(flink), where
    return flink


def test_avro_message_after_datums_left_unread_decodes_as_stock_flink_decodes_it():
    """Flink's decoder reads a datum from the bytes it still holds and pulls the next message in
    only when a read looks past them: with datums 2 and 3 held, message [D4] is never read."""
    datum = [avro_datums.main(id=avro_datums.long_(n)) for n in range(1, 7)]
    messages = [datum[0] + datum[1] + datum[2], datum[3], datum[4], datum[5]]
    flink = _compare("D1+D2+D3, D4, D5, D6", messages)
    assert [f["rows"][0][0] for f in flink] == [1, 2, 3, 5]  # datum 4 is lost


@pytest.mark.parametrize("seed", range(40))
def test_avro_datums_cut_into_messages_anywhere_decode_as_stock_flink_decodes_them(seed):
    """Valid datums (some with strings longer than Flink's 8 KB buffer) joined and cut at random
    places into messages: which bytes a datum reads from what the decoder holds, and which from
    the message it pulls in (wholly, in part, or never), is Flink's."""
    rng = random.Random(seed)
    datums = [avro_datums.main(id=avro_datums.long_(n), s=avro_datums.some(avro_datums.string(
        b"x" * rng.choice((0, 1, 9, 100, 5000, 9000, 20000))))) for n in range(rng.randint(2, 12))]
    stream = b"".join(datums)
    cuts = sorted(rng.sample(range(1, len(stream)), min(len(stream) - 1, rng.randint(1, 10))))
    messages = [stream[i:j] for i, j in zip([0] + cuts, cuts + [len(stream)])]
    messages += datums[:rng.randint(0, 3)]  # whole datums after, as a producer sends them
    _compare(f"seed {seed}: {len(datums)} datums cut at {cuts}", messages)


@pytest.mark.parametrize("tail", [1, 3, 9, 8191, 8192, 20000])
def test_avro_message_longer_than_flinks_buffer_with_bytes_left_unread_decodes_as_stock_flink(tail):
    """Flink's decoder holds at most 8 KB: of a long message's unread bytes only those it pulled
    in start the next datum, the rest are lost."""
    datum = [avro_datums.main(id=avro_datums.long_(n)) for n in range(1, 5)]
    long_tail = (datum[1] + datum[2]) * (tail // (len(datum[1]) * 2) + 1)
    messages = [datum[0] + long_tail[:tail], datum[3], datum[1], datum[2], datum[3]]
    _compare(f"a {tail}-byte tail", messages)
