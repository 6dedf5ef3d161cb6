CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_EXISTS(doc, '$.n') AS r1,
       JSON_EXISTS(doc, 'strict $.missing') AS r2,
       JSON_EXISTS(doc, 'strict $.missing' FALSE ON ERROR) AS r3,
       JSON_EXISTS(doc, 'strict $.missing' TRUE ON ERROR) AS r4,
       JSON_EXISTS(doc, 'strict $.missing' UNKNOWN ON ERROR) AS r5,
       JSON_EXISTS(doc, '$.arr[1]') AS r6
FROM src;
