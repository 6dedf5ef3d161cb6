CREATE TABLE raw_s (v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_s}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_vb (v BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_vb}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_b (v BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_b}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_i (v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_i}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_bi (v BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_bi}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_si (v SMALLINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_si}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_ti (v TINYINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_ti}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_f (v FLOAT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_f}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE raw_d (v DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:raw_d}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE dst (kind STRING, `s` STRING, `vb` BYTES, `b` BOOLEAN, `i` INT, `bi` BIGINT, `si` SMALLINT, `ti` TINYINT, `f` FLOAT, `d` DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO dst SELECT 's', v, CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_s;
INSERT INTO dst SELECT 'vb', CAST(NULL AS STRING), v, CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_vb;
INSERT INTO dst SELECT 'b', CAST(NULL AS STRING), CAST(NULL AS BYTES), v, CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_b;
INSERT INTO dst SELECT 'i', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), v, CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_i;
INSERT INTO dst SELECT 'bi', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), v, CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_bi;
INSERT INTO dst SELECT 'si', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), v, CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_si;
INSERT INTO dst SELECT 'ti', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), v, CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE) FROM raw_ti;
INSERT INTO dst SELECT 'f', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), v, CAST(NULL AS DOUBLE) FROM raw_f;
INSERT INTO dst SELECT 'd', CAST(NULL AS STRING), CAST(NULL AS BYTES), CAST(NULL AS BOOLEAN), CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS SMALLINT), CAST(NULL AS TINYINT), CAST(NULL AS FLOAT), v FROM raw_d;
END;
