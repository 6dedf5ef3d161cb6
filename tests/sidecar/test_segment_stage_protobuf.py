"""The protobuf golden segment run end to end in-process, as the shim exported it (the message
schemas inside its options): Flink's own protobuf bytes in, and out the bytes Flink's own protobuf
serializer writes for the rows the query keeps of what Flink's deserializer reads."""

from __future__ import annotations

import copy
import json
import math
import random

import pyarrow as pa
import pytest

from accelerator.formats import FormatError
from accelerator.sidecar import segment_stage, stages
from accelerator.testing import locations, protobuf_oracle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GOLDEN = locations.REPO_ROOT / "substrait-plans"
PROTOS = locations.REPO_ROOT / "flink-compat-tests" / "protos"


@pytest.fixture(scope="module")
def compiled():
    return protobuf_oracle.compile_protos(PROTOS, sorted(p.name for p in PROTOS.glob("*.proto")))


def descriptor(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def flink_options(spec: dict) -> dict[str, str]:
    """The table's own options of a spec (what Flink's factory gets), without the shim's schema keys."""
    return {k: v for k, v in spec["options"].items() if k.startswith("protobuf.")}


def values(items: list[bytes | None]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(items, pa.binary())], names=["value"])


def bid_rows() -> list[tuple]:
    """Source rows (auction, bidder, price, channel, url, placed, extra, ratio, sealed, payload,
    quantity, delta): edge values first, then seeded random ones."""
    rows = [
        (1, (7, "ann"), 11, "WEB", "http://a", (1_700_000_000, 5), "x", 1.25, False, b"\x00\xff", 3, -2),
        (2, None, 10, "APP", "", None, None, -0.0, False, b"", 0, 0),
        (3, (0, ""), 12, "PARTNER", "é", (0, 0), "", math.inf, False, None, -1, -(2 ** 63)),
        (4, (8, "日本"), 99, "nope", None, (-5, 999_999_999), "😀", math.nan, True, b"z", 2 ** 31 - 1, 2 ** 63 - 1),
        (None, None, None, None, None, None, None, None, None, None, None, None),
        (5, (9, None), 2 ** 40, "CHANNEL_UNSPECIFIED", "u", (1, 2), None, 1e300, None, None, None, None),
    ]
    rng = random.Random(20261203)
    channels = ["WEB", "APP", "PARTNER", "CHANNEL_UNSPECIFIED", None]
    for i in range(300):
        rows.append((rng.randrange(-2 ** 63, 2 ** 63) if i % 7 else i,
                     None if i % 5 == 0 else (rng.randrange(-10 ** 6, 10 ** 6), rng.choice(["", "bo", "ü", None])),
                     rng.randrange(-20, 40), rng.choice(channels), rng.choice(["", "http://x/" + str(i), None]),
                     None if i % 3 == 0 else (rng.randrange(0, 2 ** 33), rng.randrange(0, 10 ** 9)),
                     rng.choice([None, "", "extra-" + str(i)]), rng.choice([rng.uniform(-1e6, 1e6), 0.0, None]),
                     rng.choice([True, False, None]), rng.choice([None, b"", bytes([i % 256]) * (i % 4)]),
                     rng.randrange(-2 ** 31, 2 ** 31), rng.randrange(-2 ** 63, 2 ** 63)))
    return rows


def priced(row: tuple) -> tuple | None:
    """The golden query on one row Flink decoded: auction, bidder.id, ratio * 2, channel, extra,
    placed.seconds WHERE price > 10 AND NOT sealed."""
    auction, bidder, price, channel, _, placed, extra, ratio, sealed, *_ = row
    if price is None or sealed is None or not (price > 10 and not sealed):
        return None
    return (auction, None if bidder is None else bidder[0], None if ratio is None else ratio * 2, channel, extra,
            None if placed is None else placed[0])


def test_protobuf_bids_are_filtered_and_written_as_flinks_protobuf(compiled):
    d = descriptor("protobuf_to_protobuf")
    decode, encode = d["decode"], d["encode"]
    messages = protobuf_oracle.ProtobufSerializer(compiled, decode["row_type"], flink_options(decode)) \
        .serialize(bid_rows())
    assert all(isinstance(m, bytes) for m in messages), [m for m in messages if not isinstance(m, bytes)][:1]
    read = protobuf_oracle.ProtobufDeserializer(compiled, decode["row_type"], flink_options(decode)) \
        .deserialize(messages)
    kept = [p for m in read for p in map(priced, m.rows) if p is not None]
    assert 50 < len(kept) < len(messages), "the query must keep some rows and drop others"
    expected = protobuf_oracle.ProtobufSerializer(compiled, encode["row_type"], flink_options(encode)).serialize(kept)
    out = stages.create(d).process(values(messages))
    assert out.schema == segment_stage.OUTPUT_SCHEMA
    assert out.column(0).to_pylist() == expected


def test_a_message_flink_cannot_parse_fails_the_batch_naming_it_or_is_skipped(compiled):
    d = descriptor("protobuf_to_protobuf")
    good = protobuf_oracle.ProtobufSerializer(compiled, d["decode"]["row_type"], flink_options(d["decode"])) \
        .serialize([bid_rows()[0]])[0]
    broken = [good, good[:-1], good]  # a truncated last field
    with pytest.raises(FormatError) as caught:
        stages.create(d).process(values(broken))
    assert caught.value.row == 1 and "protobuf.ignore-parse-errors" in str(caught.value)
    lenient = copy.deepcopy(d)
    lenient["decode"]["options"]["protobuf.ignore-parse-errors"] = "true"
    assert stages.create(lenient).process(values(broken)).num_rows == 2


def test_a_descriptor_without_the_message_schema_is_refused_at_open():
    d = descriptor("protobuf_to_protobuf")
    d["encode"]["options"] = flink_options(d["encode"])
    with pytest.raises(stages.DescriptorError, match="accelerator.protobuf.descriptor-set"):
        stages.create(d)
