CREATE TABLE src (id INT, doc STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       JSON_OBJECT('d' VALUE 2.50, 'f' VALUE CAST(0.1 AS DOUBLE)) AS r1,
       JSON_OBJECT('arr' VALUE ARRAY[id, 2], 'm' VALUE MAP['a', id]) AS r2,
       JSON_OBJECT('r' VALUE ROW(id, 'x')) AS r3,
       JSON_OBJECT('b' VALUE CAST('AQI=' AS BYTES)) AS r4
FROM src;
