CREATE TABLE src (id INT, doc STRING, path STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_VALUE(doc, '$.a') AS r1,
       JSON_VALUE(doc, '$.b.c') AS r2,
       JSON_VALUE(doc, path) AS r3,
       JSON_VALUE(doc, '$.e') AS r4
FROM src;
