CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CARDINALITY(arr) AS r1,
       arr[1] AS r2,
       arr[3] AS r3,
       sarr[2] AS r4,
       nested[1].k AS r5,
       CARDINALITY(nested[1].v) AS r6
FROM src;
