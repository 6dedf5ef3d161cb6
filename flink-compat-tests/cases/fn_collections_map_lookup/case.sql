CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>, i INT, k STRING, ts ARRAY<TIMESTAMP(3)>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       m[k] AS r1,
       m['a'] AS r2,
       m[''] AS r3,
       MAP[1, k, 2, 'x'][i] AS r4,
       MAP[1, k, 2, 'x', 1, 'y'][1] AS r5,
       m[CAST(NULL AS STRING)] AS r6
FROM src;
