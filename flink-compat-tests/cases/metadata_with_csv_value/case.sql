CREATE TABLE src (id INT, name STRING,
  part INT METADATA FROM 'partition' VIRTUAL,
  off BIGINT METADATA FROM 'offset' VIRTUAL,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'csv');
CREATE TABLE dst (id INT, name STRING, part INT, off BIGINT, ts TIMESTAMP_LTZ(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv');
INSERT INTO dst SELECT * FROM src;
