SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       EXTRACT(YEAR FROM ts) AS r1,
       EXTRACT(MONTH FROM dt) AS r2,
       EXTRACT(DAY FROM ts) AS r3,
       EXTRACT(HOUR FROM ts) AS r4,
       EXTRACT(MINUTE FROM tm) AS r5,
       EXTRACT(SECOND FROM ts) AS r6
FROM src;
