CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ARRAY_MAX(arr) AS r1,
       ARRAY_MIN(arr) AS r2,
       ARRAY_JOIN(sarr, ',') AS r3,
       ARRAY_JOIN(sarr, '|', 'NULL') AS r4,
       ARRAY_SORT(arr) AS r5,
       ARRAY_SORT(sarr, FALSE) AS r6
FROM src;
