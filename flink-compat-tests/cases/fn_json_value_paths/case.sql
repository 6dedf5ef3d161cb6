CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_VALUE(doc, 'lax $.arr[0]') AS r1,
       JSON_VALUE(doc, 'strict $.arr[5]') AS r2,
       JSON_VALUE(doc, '$.obj.k') AS r3,
       JSON_VALUE(doc, '$.s') AS r4,
       JSON_VALUE(doc, '$') AS r5,
       JSON_VALUE(doc, '$.arr[2].x') AS r6
FROM src;
