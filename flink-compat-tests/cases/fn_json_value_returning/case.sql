CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_VALUE(doc, '$.i' RETURNING INT) AS r1,
       JSON_VALUE(doc, '$.d' RETURNING DOUBLE) AS r2,
       JSON_VALUE(doc, '$.b' RETURNING BOOLEAN) AS r3,
       JSON_VALUE(doc, '$.s' RETURNING STRING) AS r4
FROM src;
