CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       SPLIT_INDEX(s, ',', 0) AS r1,
       SPLIT_INDEX(s, ',', 2) AS r2,
       SPLIT_INDEX(s, ' ', n) AS r3
FROM src;
