CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CAST(a AS STRING) AS r1,
       CAST(x AS BOOLEAN) AS r2,
       TRY_CAST(s AS BOOLEAN) AS r3,
       TRY_CAST(s AS INT) AS r4
FROM src;
