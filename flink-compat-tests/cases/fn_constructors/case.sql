CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ARRAY[id, 2] AS r1,
       MAP['a', id] AS r2,
       ROW(id, 'x') AS r3,
       ARRAY[r.y, NULL] AS r4,
       ARRAY[ARRAY[id]] AS r5,
       MAP[COALESCE(r.y, 'none'), r.x] AS r6
FROM src;
