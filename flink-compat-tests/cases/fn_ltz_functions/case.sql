SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       HOUR(ltz) AS r1,
       CAST(ltz AS DATE) AS r2,
       DATE_FORMAT(ltz, 'HH:mm') AS r3,
       FLOOR(ltz TO DAY) AS r4,
       EXTRACT(DAY FROM ltz) AS r5,
       UNIX_TIMESTAMP(CAST(ltz AS STRING)) AS r6
FROM src;
