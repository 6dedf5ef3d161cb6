CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), d DATE, t TIME(0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601', 'json.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), d DATE, t TIME(0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json');
INSERT INTO dst SELECT id, ts, ltz, d, t FROM src;
