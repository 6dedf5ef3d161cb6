CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), t TIME(0), b BYTES, f FLOAT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), t TIME(0), b BYTES, f FLOAT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT * FROM src;
