"""The csv and raw golden segments run end to end in-process: Flink's own csv/raw bytes in, and
out the bytes Flink's own json serializer writes for the rows the query keeps."""

from __future__ import annotations

import json
import struct
from decimal import Decimal

import pyarrow as pa
import pytest

from accelerator.formats import FormatError
from accelerator.sidecar import stages
from accelerator.testing import locations
from accelerator.testing.flink_oracle import CsvDeserializer, JsonSerializer, RawSerializer

GOLDEN = locations.REPO_ROOT / "substrait-plans"


def descriptor(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def values(items: list[bytes | None]) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(items, pa.binary())], names=["value"])


def test_raw_little_endian_readings_are_filtered_and_written_as_json():
    d = descriptor("raw_to_json")
    readings = [5, -3, 0, 2 ** 62, None, 7, -(2 ** 63)]
    messages = RawSerializer(d["decode"]["row_type"], d["decode"]["options"]).serialize([(r,) for r in readings])
    assert messages[0] == struct.pack("<q", 5) and messages[4] is None  # little-endian, a tombstone
    kept = [(r, r * 2) for r in readings if r is not None and r > 0]
    expected = JsonSerializer(d["encode"]["row_type"], d["encode"]["options"]).serialize(kept)
    assert stages.create(d).process(values(messages)).column(0).to_pylist() == expected


def test_a_raw_value_of_the_wrong_size_fails_naming_the_record():
    with pytest.raises(FormatError) as caught:
        stages.create(descriptor("raw_to_json")).process(values([struct.pack("<q", 1), b"\x01\x02"]))
    assert caught.value.row == 1 and "is not 8" in caught.value.reason


def test_csv_records_are_filtered_and_written_as_json_skipping_bad_ones():
    d = descriptor("csv_to_json")
    messages = [b"1;apple;1.50", b"NULL;pear;2", b"3;\"semi;colon\";NULL", b"x;bad;1", b"4;short",
                b"5;too;many;fields;here", b"6;\"say \"\"hi\"\"\";99999999.99", None, b"7;rounds;1.005"]
    decoded = CsvDeserializer(d["decode"]["row_type"], d["decode"]["options"]).deserialize(messages)
    kept = [r for m in decoded for r in m.rows if r[0] is not None]
    assert (6, 'say "hi"', Decimal("99999999.99")) in kept and len(kept) == 5  # the query keeps what it should
    expected = JsonSerializer(d["encode"]["row_type"], d["encode"]["options"]).serialize(kept)
    assert stages.create(d).process(values(messages)).column(0).to_pylist() == expected
