CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ARRAY_CONTAINS(arr, 3) AS r1,
       ARRAY_POSITION(arr, 3) AS r2,
       ARRAY_DISTINCT(arr) AS r3,
       ARRAY_REMOVE(arr, 3) AS r4,
       ARRAY_REVERSE(sarr) AS r5,
       ARRAY_SLICE(arr, 1, 2) AS r6
FROM src;
