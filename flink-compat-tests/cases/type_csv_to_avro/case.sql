CREATE TABLE src (`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, `dec` DECIMAL(12, 4), `dec38` DECIMAL(38, 18), `c` CHAR(5), `vc` VARCHAR(20), `s` STRING, `vb` BYTES, `dt` DATE, `tm` TIME(0), `ts` TIMESTAMP(3), `ts6` TIMESTAMP(6), `ltz` TIMESTAMP_LTZ(3), `arr` ARRAY<INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv', 'csv.null-literal' = 'NULL');
CREATE TABLE dst (`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE, `dec` DECIMAL(12, 4), `dec38` DECIMAL(38, 18), `vc` VARCHAR(20), `s` STRING, `vb` BYTES, `dt` DATE, `ts` TIMESTAMP(3), `arr` ARRAY<INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro');
INSERT INTO dst SELECT `b`, `ti`, `si`, `i`, `bi`, `f`, `d`, `dec`, `dec38`, `vc`, `s`, `vb`, `dt`, `ts`, `arr` FROM src;
