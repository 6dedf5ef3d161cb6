CREATE TABLE src (id INT, arr ARRAY<INT>, sarr ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>, i INT, k STRING, ts ARRAY<TIMESTAMP(3)>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CAST(arr AS ARRAY<BIGINT>) AS r1,
       CAST(arr AS ARRAY<STRING>) AS r2,
       CAST(m AS MAP<STRING, BIGINT>) AS r3,
       CAST(MAP['a', i, 'b', 2] AS MAP<STRING, STRING>) AS r4,
       CAST(ts AS ARRAY<TIMESTAMP(6)>) AS r5,
       CAST(nested AS ARRAY<ARRAY<DECIMAL(12, 1)>>) AS r6
FROM src;
