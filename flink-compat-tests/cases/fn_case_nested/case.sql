CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CASE WHEN x IS NULL THEN NULL ELSE x * 2 END AS r1,
       CASE s WHEN 'a' THEN 1 WHEN 'A' THEN 2 ELSE 0 END AS r2,
       IF(a, IF(b, 'tt', 'tf'), 'f?') AS r3,
       NULLIF(s, '') AS r4,
       COALESCE(s, CAST(x AS STRING), 'z') AS r5
FROM src;
