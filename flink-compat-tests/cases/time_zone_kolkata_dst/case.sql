SET 'table.local-time-zone' = 'Asia/Kolkata';
CREATE TABLE src (id INT, ltz TIMESTAMP_LTZ(3), ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, ltz_text STRING, as_ts TIMESTAMP(3), back TIMESTAMP_LTZ(3), ny STRING, hour_local BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json');
INSERT INTO dst SELECT id, CAST(ltz AS STRING), CAST(ltz AS TIMESTAMP(3)), CAST(ts AS TIMESTAMP_LTZ(3)),
  CONVERT_TZ(CAST(ts AS STRING), 'UTC', 'America/New_York'), HOUR(ltz) FROM src;
