CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       MAP_KEYS(m) AS r1,
       MAP_VALUES(m) AS r2,
       MAP_ENTRIES(m) AS r3,
       MAP_UNION(m, MAP['z', 0]) AS r4,
       MAP_FROM_ARRAYS(ARRAY['a', 'b'], ARRAY[id, 2]) AS r5
FROM src;
