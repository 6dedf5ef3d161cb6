CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       REGEXP_EXTRACT(s, '([a-z]+)', 1) AS r1,
       REGEXP_EXTRACT(s, '[A-Z][a-z]*') AS r2,
       REGEXP_EXTRACT(s, '(,|^)([^,]*),', 2) AS r3,
       REGEXP_EXTRACT(s, '([\w\-]+)@', 1) AS r4,
       REGEXP_EXTRACT(s, '[^ a-z]+', 0) AS r5,
       REGEXP_EXTRACT(s, '(\s+)(\S{2,3})', 2) AS r6
FROM src;
