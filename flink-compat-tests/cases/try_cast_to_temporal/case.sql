CREATE TABLE src (id INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TRY_CAST(s AS DATE) AS r1,
       TRY_CAST(s AS TIME(0)) AS r2,
       TRY_CAST(s AS TIMESTAMP(3)) AS r3,
       TRY_CAST(s AS TIMESTAMP_LTZ(3)) AS r4
FROM src;
