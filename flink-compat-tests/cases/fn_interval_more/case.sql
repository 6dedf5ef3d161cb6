SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ts + INTERVAL '1-2' YEAR TO MONTH AS r1,
       dt + INTERVAL '30' DAY AS r2,
       ltz + INTERVAL '1' HOUR AS r3,
       ts - INTERVAL '0.5' SECOND AS r4,
       tm - INTERVAL '1' MINUTE AS r5,
       ts + INTERVAL '1 02:03:04' DAY TO SECOND AS r6
FROM src;
