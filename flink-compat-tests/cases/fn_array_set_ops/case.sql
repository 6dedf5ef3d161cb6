CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ARRAY_UNION(arr, ARRAY[1, 9]) AS r1,
       ARRAY_CONCAT(arr, ARRAY[0]) AS r2,
       ARRAY_EXCEPT(arr, ARRAY[1]) AS r3,
       ARRAY_INTERSECT(arr, ARRAY[1, 3]) AS r4,
       ARRAY_APPEND(arr, 0) AS r5,
       ARRAY_PREPEND(arr, 0) AS r6
FROM src;
