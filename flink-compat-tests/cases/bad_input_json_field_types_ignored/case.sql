CREATE TABLE src (id INT, i INT, d DOUBLE, b BOOLEAN, s STRING, ts TIMESTAMP(3), arr ARRAY<INT>, r ROW<x INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, i INT, d DOUBLE, b BOOLEAN, s STRING, ts TIMESTAMP(3), arr ARRAY<INT>, r ROW<x INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT * FROM src;
