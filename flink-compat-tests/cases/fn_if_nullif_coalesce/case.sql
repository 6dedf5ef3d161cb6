CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       IF(a, x, y) AS r1,
       NULLIF(x, y) AS r2,
       COALESCE(x, y, 0) AS r3,
       IFNULL(s, 'none') AS r4
FROM src;
