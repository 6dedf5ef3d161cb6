SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TIMESTAMPADD(DAY, 1, ts) AS r1,
       TIMESTAMPADD(MONTH, 1, dt) AS r2,
       TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2000-01-01 00:00:00') AS r3,
       TIMESTAMPDIFF(SECOND, TIMESTAMP '1970-01-01 00:00:00', ts) AS r4
FROM src;
