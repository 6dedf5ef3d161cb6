SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       UNIX_TIMESTAMP(s, 'yyyy-MM-dd HH:mm:ss') AS r1,
       TO_DATE(s, 'yyyy-MM-dd HH:mm:ss') AS r2,
       TO_TIMESTAMP(SUBSTRING(s, 1, 10), 'yyyy-MM-dd') AS r3,
       TO_TIMESTAMP('2024-02-30 00:00:00') AS r4
FROM src;
