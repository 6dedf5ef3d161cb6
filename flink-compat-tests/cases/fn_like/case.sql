CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       s LIKE '%o%' AS r1,
       s LIKE 'H_llo%' AS r2,
       s NOT LIKE '%a%' AS r3,
       s LIKE '%!%%' ESCAPE '!' AS r4,
       s LIKE t AS r5
FROM src;
