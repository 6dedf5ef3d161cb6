CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>, i INT, k STRING, ts ARRAY<TIMESTAMP(3)>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ELEMENT(ARRAY[arr[1]]) AS r1,
       CARDINALITY(MAP[k, id]) AS r2,
       MAP[COALESCE(k, 'none'), id] AS r3,
       CAST(arr AS ARRAY<TINYINT>) AS r4
FROM src;
