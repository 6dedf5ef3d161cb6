CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_QUERY(doc, '$.missing' EMPTY ARRAY ON EMPTY) AS r1,
       JSON_QUERY(doc, '$.missing' EMPTY OBJECT ON EMPTY) AS r2,
       JSON_QUERY(doc, '$.s' EMPTY ARRAY ON ERROR) AS r3,
       JSON_QUERY(doc, 'strict $.missing' EMPTY OBJECT ON ERROR) AS r4,
       JSON_QUERY(doc, '$.missing' NULL ON EMPTY) AS r5
FROM src;
