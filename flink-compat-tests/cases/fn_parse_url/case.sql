CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       PARSE_URL(s, 'HOST') AS r1,
       PARSE_URL(s, 'PATH') AS r2,
       PARSE_URL(s, 'QUERY', 'k') AS r3,
       PARSE_URL(s, 'PROTOCOL') AS r4
FROM src;
