CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       a AND b AS r1,
       a OR b AS r2,
       NOT a AS r3,
       a AND NOT b AS r4
FROM src;
