CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_ARRAY() AS r1,
       JSON_ARRAY(1, 'a', TRUE, CAST(NULL AS INT)) AS r2,
       JSON_ARRAY(doc NULL ON NULL) AS r3,
       JSON_ARRAY(doc ABSENT ON NULL) AS r4,
       JSON_ARRAY(JSON_ARRAY(1, 2), JSON_OBJECT('k' VALUE id)) AS r5
FROM src;
