CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_STRING(id) AS r1,
       JSON_STRING(1.5) AS r2,
       JSON_STRING(TRUE) AS r3,
       JSON_STRING(ARRAY[1, 2]) AS r4,
       JSON_STRING(doc) AS r5,
       JSON_STRING(CAST(NULL AS STRING)) AS r6,
       JSON_STRING(MAP['k', id]) AS r7
FROM src;
