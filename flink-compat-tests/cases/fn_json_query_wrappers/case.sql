CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_QUERY(doc, '$.arr' WITHOUT WRAPPER) AS r1,
       JSON_QUERY(doc, '$.arr' WITH CONDITIONAL ARRAY WRAPPER) AS r2,
       JSON_QUERY(doc, '$.s' WITH UNCONDITIONAL ARRAY WRAPPER) AS r3,
       JSON_QUERY(doc, '$.s') AS r4,
       JSON_QUERY(doc, '$.obj') AS r5,
       JSON_QUERY(doc, '$') AS r6
FROM src;
