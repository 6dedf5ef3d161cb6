"""What the accelerated json format takes on, and what it leaves to stock Flink."""

from decimal import Decimal

import pytest

from accelerator.formats import json as json_format
from accelerator.formats import types
from accelerator.formats.json_encoder import encode
from accelerator.formats.json_options import parse_options
from accelerator.testing import locations
from accelerator.testing.flink_oracle import JsonSerializer
from values import to_batch

ALL_TYPES = ("ROW<`b` BOOLEAN, `i` INT, `d` DECIMAL(38, 18), `s` VARCHAR(2147483647), "
             "`t` TIMESTAMP(3) WITH LOCAL TIME ZONE, `a` ARRAY<ROW<`x` BINARY(3)>>, "
             "`m` MAP<VARCHAR(2147483647), MAP<CHAR(2), TIME(0)>>>")


def test_every_listed_type_encodes():
    assert json_format.supported(ALL_TYPES, {"json.encode.ignore-null-fields": "true"}) is None


@pytest.mark.parametrize("row_type, fragment", [
    ("ROW<`m` MULTISET<VARCHAR(2147483647)>>", "MULTISET"),
    ("ROW<`m` MAP<INT, INT>>", "string map keys"),
    ("ROW<`t` TIMESTAMP(3) WITH TIME ZONE>", "WITH TIME ZONE"),
    ("ROW<`r` ROW<`x` ARRAY<MULTISET<INT>>>>", "r.x[]"),
    ("INT", "needs a ROW type"),
    ("ROW<`x` RAW('a', 'b')>", "unreadable"),
])
def test_unsupported_types_say_why(row_type, fragment):
    assert fragment in json_format.supported(row_type, {})


@pytest.mark.parametrize("options, fragment", [
    ({"json.timestamp-format.standard": "iso-8601"}, "timestamp-format"),
    ({"json.map-null-key.mode": "KEEP"}, "map-null-key.mode"),
    ({"json.encode.ignore-null-fields": "yes"}, "true or false"),
    ({"json.no-such-option": "1"}, "json.no-such-option"),
    ({"json.fail-on-missing-field": "true", "json.ignore-parse-errors": "true"}, "cannot both"),
])
def test_options_flink_rejects_are_reported(options, fragment):
    assert fragment in json_format.supported("ROW<`a` INT>", options)


def test_every_decoded_type_decodes():
    row = ("ROW<`b` BOOLEAN, `i` INT, `d` DECIMAL(38, 18), `s` VARCHAR(2147483647), `f` FLOAT, "
           "`t` TIMESTAMP(3) WITH LOCAL TIME ZONE, `a` ARRAY<ROW<`x` DATE, `y` TIME(0)>>, `bin` BINARY(3), "
           "`vb` VARBINARY(2147483647), `m` MAP<VARCHAR(2147483647), MAP<CHAR(2), ARRAY<VARBINARY(5)>>>>")
    assert json_format.supported(row, {"json.ignore-parse-errors": "true"}, direction="decode") is None


@pytest.mark.parametrize("row_type, options, fragment", [
    ("ROW<`m` MAP<INT, VARBINARY(2147483647)>>", {}, "string map keys"),
    ("ROW<`a` INT>", {"json.decode.json-parser.enabled": "false"}, "tree-based"),
    ("ROW<`m` MULTISET<INT>>", {}, "MULTISET"),
])
def test_decoding_leaves_to_flink_what_it_does_not_reproduce(row_type, options, fragment):
    assert fragment in json_format.supported(row_type, options, direction="decode")


def test_plain_decimals_are_refused_on_exactly_the_releases_whose_flink_writes_other_bytes():
    """Flink's own serializer of the release the oracle runs (ACCELERATOR_FLINK_VERSION, else the
    build's): where `supported` lets a plain-decimal sink run accelerated, our bytes are Flink's;
    where it keeps it stock (1.20's plain decimals drop their trailing zeros), they are not."""
    release = locations.flink_version()
    row_type = types.parse("ROW<`id` INT, `d` DECIMAL(10, 2), `a` ARRAY<ROW<`x` DECIMAL(5, 1)>>>")
    options = {"json.encode.decimal-as-plain-number": "true"}
    rows_ = [(1, Decimal("1.10"), [(Decimal("2.0"),)]), (2, Decimal("-0.50"), []), (3, Decimal("100.00"), None),
             (4, None, [(None,), (Decimal("0.0"),)])]
    flink = JsonSerializer(row_type.serializable(), options).serialize(rows_)
    ours = encode(to_batch(row_type, rows_), row_type, parse_options(options)).to_pylist()
    reason = json_format.supported(row_type, options, "encode", release)
    assert (reason is None) == (ours == flink), f"Flink {release}: {reason}"
    if reason is not None:
        assert reason.startswith(f"d: Flink {release}'s json format under 'json.encode.decimal-as-plain-number'")
    assert json_format.supported(row_type, options, "decode", release) is None
    assert json_format.supported(row_type, {}, "encode", release) is None
