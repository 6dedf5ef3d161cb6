CREATE TABLE src (id INT, doc STRING, path STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_QUERY(doc, '$.b') AS r1,
       JSON_EXISTS(doc, '$.a') AS r2,
       JSON_QUERY(doc, '$.b.d' WITH WRAPPER) AS r3,
       doc IS JSON AS r4
FROM src;
