CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       LPAD(s, 8, '*') AS r1,
       RPAD(s, 8, '*') AS r2,
       REPEAT(t, n) AS r3,
       LPAD(s, n, 'ab') AS r4
FROM src;
