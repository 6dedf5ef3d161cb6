SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CONVERT_TZ(s, 'UTC', 'Asia/Kolkata') AS r1,
       CONVERT_TZ(s, 'Europe/Berlin', 'UTC') AS r2
FROM src;
