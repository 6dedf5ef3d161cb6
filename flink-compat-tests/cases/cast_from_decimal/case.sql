SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dm DECIMAL(10, 3), s STRING, sn STRING, sb STRING, sd STRING, st STRING, sts STRING, vb BYTES, dt DATE, tm TIME(0), ts TIMESTAMP(3), ts_old TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT, y STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CAST(dm AS TINYINT) AS r1,
       CAST(dm AS SMALLINT) AS r2,
       CAST(dm AS INT) AS r3,
       CAST(dm AS BIGINT) AS r4,
       CAST(dm AS FLOAT) AS r5,
       CAST(dm AS DOUBLE) AS r6,
       CAST(dm AS DECIMAL(5, 2)) AS r7,
       CAST(dm AS DECIMAL(38, 0)) AS r8,
       CAST(dm AS BOOLEAN) AS r9,
       CAST(dm AS STRING) AS r10,
       CAST(dm AS CHAR(3)) AS r11,
       CAST(dm AS VARCHAR(4)) AS r12,
       CAST(dm AS DECIMAL(10, 1)) AS r13,
       CAST(dm AS DECIMAL(20, 6)) AS r14
FROM src;
