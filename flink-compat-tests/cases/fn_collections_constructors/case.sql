CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>, i INT, k STRING, ts ARRAY<TIMESTAMP(3)>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ARRAY[id, i] AS r1,
       ARRAY[k, 'z', NULL] AS r2,
       MAP['a', id, 'b', i, 'a', 7] AS r3,
       MAP['x', k, 'y', 'x'] AS r4,
       ARRAY[ts[1], ts[2]] AS r5,
       ARRAY[arr[1]] AS r6
FROM src;
