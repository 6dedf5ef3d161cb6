SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ltz AS r1,
       CAST(ltz AS STRING) AS r2,
       CAST(ltz AS TIMESTAMP(3)) AS r3,
       HOUR(ltz) AS r4,
       CAST(ts AS TIMESTAMP_LTZ(3)) AS r5
FROM src;
