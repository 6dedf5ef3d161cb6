SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       YEAR(dt) AS r1,
       QUARTER(dt) AS r2,
       MONTH(dt) AS r3,
       WEEK(dt) AS r4,
       DAYOFYEAR(dt) AS r5,
       DAYOFMONTH(dt) AS r6,
       DAYOFWEEK(dt) AS r7
FROM src;
