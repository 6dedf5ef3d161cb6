CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       REGEXP_REPLACE(s, '[aeiou]', '_') AS r1,
       REGEXP_EXTRACT(s, '([a-z]+)', 1) AS r2,
       REGEXP_EXTRACT(s, '(\d)(\d)', 2) AS r3
FROM src;
