CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       doc IS JSON AS r1,
       doc IS JSON VALUE AS r2,
       doc IS JSON SCALAR AS r3,
       doc IS JSON ARRAY AS r4,
       doc IS JSON OBJECT AS r5,
       doc IS NOT JSON AS r6
FROM src;
