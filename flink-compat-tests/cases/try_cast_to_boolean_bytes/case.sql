CREATE TABLE src (id INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TRY_CAST(s AS BOOLEAN) AS r1,
       TRY_CAST(s AS BYTES) AS r2,
       TRY_CAST(s AS BINARY(2)) AS r3,
       TRY_CAST(s AS CHAR(2)) AS r4
FROM src;
