SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TO_TIMESTAMP_LTZ(epoch * 1000, 3) AS r1,
       TO_TIMESTAMP_LTZ(epoch, 0) AS r2,
       TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss') AS r3,
       TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss', 'UTC') AS r4
FROM src;
