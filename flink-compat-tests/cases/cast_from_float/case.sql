SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dm DECIMAL(10, 3), s STRING, sn STRING, sb STRING, sd STRING, st STRING, sts STRING, vb BYTES, dt DATE, tm TIME(0), ts TIMESTAMP(3), ts_old TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT, y STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CAST(f AS TINYINT) AS r1,
       CAST(f AS SMALLINT) AS r2,
       CAST(f AS INT) AS r3,
       CAST(f AS BIGINT) AS r4,
       CAST(f AS FLOAT) AS r5,
       CAST(f AS DOUBLE) AS r6,
       CAST(f AS DECIMAL(5, 2)) AS r7,
       CAST(f AS DECIMAL(38, 0)) AS r8,
       CAST(f AS BOOLEAN) AS r9,
       CAST(f AS STRING) AS r10,
       CAST(f AS CHAR(3)) AS r11,
       CAST(f AS VARCHAR(4)) AS r12
FROM src;
