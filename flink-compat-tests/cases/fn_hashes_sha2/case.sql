CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       SHA224(s) AS r1,
       SHA384(s) AS r2,
       SHA512(s) AS r3,
       SHA2(s, 256) AS r4
FROM src;
