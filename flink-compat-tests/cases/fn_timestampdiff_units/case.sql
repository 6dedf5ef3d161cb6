SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TIMESTAMPDIFF(MONTH, ts, TIMESTAMP '2000-01-31 00:00:00') AS r1,
       TIMESTAMPDIFF(YEAR, dt, DATE '2000-01-01') AS r2,
       TIMESTAMPDIFF(HOUR, ts, TIMESTAMP '2024-03-01 00:00:00') AS r3,
       TIMESTAMPDIFF(MINUTE, ltz, ltz) AS r4,
       TIMESTAMPADD(YEAR, -1, dt) AS r5,
       TIMESTAMPADD(SECOND, 90, ts) AS r6,
       TIMESTAMPADD(WEEK, 1, ts) AS r7
FROM src;
