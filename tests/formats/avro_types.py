"""Row types the avro tests share: every type the accelerated avro format takes on."""

from accelerator.formats import types

LEGACY = {}
MODERN = {"avro.timestamp_mapping.legacy": "false"}

SCALARS = types.parse(
    "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT NOT NULL, `f` FLOAT, "
    "`d` DOUBLE, `dec` DECIMAL(10, 2), `dec38` DECIMAL(38, 18), `dec0` DECIMAL(5, 0), "
    "`c` CHAR(3), `s` VARCHAR(2147483647), `bin` BINARY(4), `vb` VARBINARY(2147483647), `dt` DATE, "
    "`t` TIME(0), `t3` TIME(3), `ts` TIMESTAMP(3), `ts0` TIMESTAMP(0)>")
#: Only with 'avro.timestamp_mapping.legacy' = 'false'.
TIMESTAMPS = types.parse(
    "ROW<`ts` TIMESTAMP(3), `ts6` TIMESTAMP(6), `ltz` TIMESTAMP(3) WITH LOCAL TIME ZONE, "
    "`ltz6` TIMESTAMP(6) WITH LOCAL TIME ZONE NOT NULL, `i` INT>")
NESTED = types.parse(
    "ROW<`id` BIGINT NOT NULL, `tags` ARRAY<VARCHAR(2147483647)>, "
    "`r` ROW<`a` INT, `b` ROW<`x` DECIMAL(38, 10), `y` ARRAY<TIMESTAMP(3)>>>, "
    "`ad` ARRAY<ROW<`p` BOOLEAN, `q` DATE NOT NULL, `w` FLOAT>> NOT NULL, "
    "`nn` ARRAY<INT NOT NULL>, `aa` ARRAY<ARRAY<VARBINARY(2147483647)>>, "
    "`who` ROW<`name` VARCHAR(2147483647), `ts` TIMESTAMP(3)> NOT NULL>")
MAPS = types.parse(
    "ROW<`m` MAP<VARCHAR(2147483647), DOUBLE>, `id` INT, "
    "`am` ARRAY<MAP<VARCHAR(2147483647), ROW<`p` BOOLEAN, `q` DATE, `w` FLOAT>>>, "
    "`mm` MAP<CHAR(2), MAP<VARCHAR(2147483647), INT NOT NULL> NOT NULL>>")
NEXMARK = types.parse(
    "ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` VARCHAR(2147483647), "
    "`url` VARCHAR(2147483647), `dateTime` TIMESTAMP(3), `extra` VARCHAR(2147483647)>")
