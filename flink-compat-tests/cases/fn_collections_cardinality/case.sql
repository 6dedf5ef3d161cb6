CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>, i INT, k STRING, ts ARRAY<TIMESTAMP(3)>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CARDINALITY(arr) AS r1,
       CARDINALITY(nested) AS r2,
       CARDINALITY(m) AS r3,
       CARDINALITY(MAP[1, k, 2, 'x', 1, 'y']) AS r4,
       CARDINALITY(ts) AS r5,
       CARDINALITY(nested[i]) AS r6
FROM src;
