CREATE TABLE src (`s` STRING, `vb` BYTES, `b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, `d` DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE raw_s (v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_s}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_vb (v BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_vb}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_b (v BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_b}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_ti (v TINYINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_ti}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_si (v SMALLINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_si}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_i (v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_i}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_bi (v BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_bi}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_f (v FLOAT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_f}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
CREATE TABLE raw_d (v DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_d}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw');
EXECUTE STATEMENT SET BEGIN
INSERT INTO raw_s SELECT `s` FROM src;
INSERT INTO raw_vb SELECT `vb` FROM src;
INSERT INTO raw_b SELECT `b` FROM src;
INSERT INTO raw_ti SELECT `ti` FROM src;
INSERT INTO raw_si SELECT `si` FROM src;
INSERT INTO raw_i SELECT `i` FROM src;
INSERT INTO raw_bi SELECT `bi` FROM src;
INSERT INTO raw_f SELECT `f` FROM src;
INSERT INTO raw_d SELECT `d` FROM src;
END;
