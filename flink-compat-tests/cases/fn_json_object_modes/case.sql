CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_OBJECT('id' VALUE id) AS r1,
       JSON_OBJECT(KEY 'k' VALUE doc) AS r2,
       JSON_OBJECT('nested' VALUE JSON_OBJECT('x' VALUE 1)) AS r3,
       JSON_OBJECT('n' VALUE JSON_VALUE(doc, '$.s') NULL ON NULL) AS r4,
       JSON_OBJECT('n' VALUE JSON_VALUE(doc, '$.s') ABSENT ON NULL) AS r5,
       JSON_OBJECT() AS r6
FROM src;
