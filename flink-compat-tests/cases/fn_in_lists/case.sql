CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       x IN (1, 2, 3) AS r1,
       x NOT IN (0, 5) AS r2,
       s IN ('a', 'A', '') AS r3,
       y IN (x, 9) AS r4
FROM src;
