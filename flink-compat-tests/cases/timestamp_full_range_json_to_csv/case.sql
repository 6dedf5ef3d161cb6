CREATE TABLE src (id INT, ts TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv');
INSERT INTO dst SELECT * FROM src;
