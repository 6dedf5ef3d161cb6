CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_VALUE(doc, '$.missing' DEFAULT 'none' ON EMPTY) AS r1,
       JSON_VALUE(doc, '$.missing' NULL ON EMPTY) AS r2,
       JSON_VALUE(doc, '$.obj' DEFAULT 'err' ON ERROR) AS r3,
       JSON_VALUE(doc, 'strict $.missing' DEFAULT 'e' ON ERROR) AS r4,
       JSON_VALUE(doc, '$.s' DEFAULT 'x' ON EMPTY DEFAULT 'y' ON ERROR) AS r5,
       JSON_VALUE(doc, '$.n' DEFAULT 'was null' ON EMPTY) AS r6
FROM src;
