"""What the accelerated avro format takes on, and what it leaves to stock Flink. Every type
Flink itself refuses to derive a schema for is checked against Flink's own refusal."""

import pytest

from accelerator.formats import avro
from accelerator.testing.flink_oracle import AvroSerializer

ALL_TYPES = ("ROW<`b` BOOLEAN, `i` INT, `d` DECIMAL(38, 18), `s` VARCHAR(2147483647), `bin` BINARY(3), "
             "`t` TIMESTAMP(3), `tm` TIME(3), `a` ARRAY<ROW<`x` BINARY(3), `y` ARRAY<DATE>>>, "
             "`m` MAP<VARCHAR(2147483647), MAP<CHAR(2), TIME(0)>>>")


def test_every_listed_type_encodes_and_decodes():
    assert avro.supported(ALL_TYPES, {}) is None
    assert avro.supported(ALL_TYPES, {}, "decode") is None


MODERN_ONLY = "ROW<`t` TIMESTAMP(6), `l` TIMESTAMP(6) WITH LOCAL TIME ZONE>"


def test_timestamps_beyond_millis_and_local_time_zone_need_the_modern_mapping():
    assert avro.supported(MODERN_ONLY, {"avro.timestamp_mapping.legacy": "FALSE"}) is None
    assert "TIMESTAMP(6)" in avro.supported(MODERN_ONLY, {})


@pytest.mark.parametrize("row_type, options, fragment", [
    ("ROW<`t` TIMESTAMP(6)>", {}, "TIMESTAMP(6)"),
    ("ROW<`t` TIMESTAMP(3) WITH LOCAL TIME ZONE>", {}, "LOCAL TIME ZONE"),
    ("ROW<`t` TIMESTAMP(9)>", {"avro.timestamp_mapping.legacy": "false"}, "TIMESTAMP(9)"),
    ("ROW<`a` ARRAY<TIMESTAMP(6)>>", {"avro.timestamp_mapping.legacy": "false"}, "a[]"),
    ("ROW<`a` ARRAY<TIMESTAMP(3) WITH LOCAL TIME ZONE>>", {"avro.timestamp_mapping.legacy": "false"}, "a[]"),
    ("ROW<`t` TIME(6)>", {}, "TIME(6)"),
    ("ROW<`m` MAP<INT, INT>>", {}, "string map keys"),
    ("ROW<`a` ROW<`b` ROW<`x` INT>>, `a_b` ROW<`c` INT>>", {}, "record name"),
])
def test_types_flink_cannot_write_are_refused_like_flink_refuses_them(row_type, options, fragment):
    assert fragment in avro.supported(row_type, options)
    with pytest.raises(Exception):
        AvroSerializer(row_type, options)


@pytest.mark.parametrize("row_type, fragment", [
    ("ROW<`m` MULTISET<VARCHAR(2147483647)>>", "MULTISET"),
    ("ROW<`t` TIMESTAMP(3) WITH TIME ZONE>", "WITH TIME ZONE"),
    ("ROW<`my field` INT>", "Avro name"),
    ("INT", "needs a ROW type"),
    ("ROW<`x` RAW('a', 'b')>", "unreadable"),
])
def test_unsupported_types_say_why(row_type, fragment):
    assert fragment in avro.supported(row_type, {})


@pytest.mark.parametrize("options, fragment", [
    ({"avro.encoding": "json"}, "avro.encoding"),
    ({"avro.encoding": "xml"}, "avro.encoding"),
    ({"avro.timestamp_mapping.legacy": "yes"}, "timestamp_mapping"),
    ({"avro.codec": "snappy"}, "avro.codec"),
])
def test_options_say_why(options, fragment):
    assert fragment in avro.supported("ROW<`a` INT>", options)


def test_binary_encoding_spelled_any_case_is_supported():
    assert avro.supported("ROW<`a` INT>", {"avro.encoding": "BINARY"}) is None
