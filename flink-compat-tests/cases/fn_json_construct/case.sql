CREATE TABLE src (id INT, doc STRING, path STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_STRING(doc) AS r1,
       JSON_OBJECT('id' VALUE id, 'doc' VALUE doc) AS r2,
       JSON_ARRAY(id, doc, 'x') AS r3,
       JSON_OBJECT('n' VALUE CAST(NULL AS INT) ABSENT ON NULL) AS r4
FROM src;
