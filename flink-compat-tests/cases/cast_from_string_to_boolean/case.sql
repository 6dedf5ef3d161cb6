SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dm DECIMAL(10, 3), s STRING, sn STRING, sb STRING, sd STRING, st STRING, sts STRING, vb BYTES, dt DATE, tm TIME(0), ts TIMESTAMP(3), ts_old TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT, y STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CAST(sb AS BOOLEAN) AS r1
FROM src;
