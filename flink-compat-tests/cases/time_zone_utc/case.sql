SET 'table.local-time-zone' = 'UTC';
CREATE TABLE src (id INT, ltz TIMESTAMP_LTZ(3), ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, ltz_text STRING, as_ts TIMESTAMP(3), back TIMESTAMP_LTZ(3), local_hour BIGINT, local_day DATE, fmt STRING, epoch_s BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, CAST(ltz AS STRING), CAST(ltz AS TIMESTAMP(3)), CAST(ts AS TIMESTAMP_LTZ(3)),
  HOUR(ltz), CAST(ltz AS DATE), DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm:ss'), UNIX_TIMESTAMP(CAST(ts AS STRING)) FROM src;
