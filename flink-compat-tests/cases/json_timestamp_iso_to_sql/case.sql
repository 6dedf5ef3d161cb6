CREATE TABLE src (id INT, ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), t TIME(3), d DATE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601',
  'json.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), t TIME(3), d DATE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT * FROM src;
