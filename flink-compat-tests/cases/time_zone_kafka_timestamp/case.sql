SET 'table.local-time-zone' = 'America/Los_Angeles';
CREATE TABLE src (id INT,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json');
CREATE TABLE dst (id INT, ts_text STRING, ts_local TIMESTAMP(3), day_local STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, CAST(ts AS STRING), CAST(ts AS TIMESTAMP(3)), DATE_FORMAT(ts, 'yyyy-MM-dd') FROM src;
