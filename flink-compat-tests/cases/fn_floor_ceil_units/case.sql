SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       FLOOR(ts TO WEEK) AS r1,
       CEIL(dt TO YEAR) AS r2,
       FLOOR(ts TO QUARTER) AS r3,
       CEIL(ts TO MINUTE) AS r4,
       CEIL(ts TO SECOND) AS r5,
       FLOOR(ts TO MILLISECOND) AS r6
FROM src;
