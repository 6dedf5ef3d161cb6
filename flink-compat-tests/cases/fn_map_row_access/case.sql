CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, m MAP<STRING, INT>, r ROW<x INT, y STRING>, nested ARRAY<ROW<k STRING, v ARRAY<INT>>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CARDINALITY(m) AS r1,
       m['k'] AS r2,
       m['missing'] AS r3,
       r.x AS r4,
       r.y AS r5,
       m[''] AS r6
FROM src;
