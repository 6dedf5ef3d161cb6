CREATE TABLE src (id INT, s STRING, r ROW<x INT, y STRING>, arr ARRAY<STRING>, m MAP<STRING, INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, s STRING, r ROW<x INT, y STRING>, arr ARRAY<STRING>, m MAP<STRING, INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json',
  'json.encode.ignore-null-fields' = 'true');
INSERT INTO dst SELECT * FROM src;
