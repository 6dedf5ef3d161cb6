"""Our reading of Flink's type strings matches Flink's own printer, spelling for spelling."""

import pyarrow as pa
import pytest

from accelerator.formats import types
from accelerator.testing import flink_oracle

WRITTEN = [
    "BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER NOT NULL", "BIGINT", "FLOAT", "DOUBLE",
    "DECIMAL", "DECIMAL(38, 18)", "DECIMAL(1, 0) NOT NULL", "CHAR", "CHAR(7)", "VARCHAR(3)",
    "STRING", "BINARY(4)", "VARBINARY(9)", "BYTES", "DATE", "TIME", "TIME(3)", "TIMESTAMP",
    "TIMESTAMP(0)", "TIMESTAMP(9) NOT NULL", "TIMESTAMP_LTZ(3)", "TIMESTAMP(6) WITH LOCAL TIME ZONE",
    "TIMESTAMP(3) WITH TIME ZONE", "ARRAY<INT NOT NULL>", "ARRAY<ARRAY<STRING>> NOT NULL",
    "MAP<STRING, BIGINT>", "MAP<STRING NOT NULL, ARRAY<DOUBLE>>", "MULTISET<STRING>",
    "ROW<`id` BIGINT NOT NULL, `name` STRING, `price` DECIMAL(10, 2), `ts` TIMESTAMP(3), "
    "`tags` ARRAY<INT>, `m` MAP<STRING, BIGINT>, `nested` ROW<`a` BOOLEAN>>",
    "ROW<`we``ird` INT 'it''s described', `x y` ROW<`z` DATE NOT NULL> NOT NULL>",
    "ROW<a INT, b STRING>",
]


@pytest.mark.parametrize("written", WRITTEN)
def test_parse_then_print_is_flinks_serializable_string(written):
    flink_text = flink_oracle.serializable_string(written)
    assert types.parse(flink_text).serializable() == flink_text


def test_arrow_types():
    row = types.parse("ROW<`id` BIGINT NOT NULL, `p` DECIMAL(10, 2), `t` TIME(0), "
                      "`ts` TIMESTAMP(3), `l` TIMESTAMP(9) WITH LOCAL TIME ZONE, "
                      "`m` MAP<VARCHAR(2147483647), ARRAY<INT>>, `r` ROW<`a` BOOLEAN NOT NULL>>")
    schema = types.to_arrow_schema(row)
    assert schema.field("id") == pa.field("id", pa.int64(), nullable=False)
    assert schema.field("p").type == pa.decimal128(10, 2)
    assert schema.field("t").type == pa.time32("ms")
    # Flink's TimestampData pair, whatever the precision, for TIMESTAMP and TIMESTAMP_LTZ alike.
    pair = pa.struct([pa.field("millis", pa.int64(), nullable=False), pa.field("nanos", pa.int32(), nullable=False)])
    assert schema.field("ts").type == pair
    assert schema.field("l").type == pair
    assert schema.field("m").type == pa.map_(pa.field("key", pa.string(), nullable=False),
                                             pa.list_(pa.int32()))
    assert schema.field("r").type == pa.struct([pa.field("a", pa.bool_(), nullable=False)])


@pytest.mark.parametrize("bad", ["ROW<", "INT NOT", "VARCHAR", "FOO", "ROW<`a` INT> x", "DECIMAL(3)"])
def test_unreadable_types_are_rejected(bad):
    with pytest.raises(types.TypeSyntaxError):
        types.parse(bad)
