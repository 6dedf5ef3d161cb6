-- A TIMESTAMP_LTZ rowtime in a fixed-offset session zone: windows are assigned in GMT+08:00 wall
-- clock time (zone_offset_ms 28800000), and window_time is a TIMESTAMP_LTZ(3).
SET 'table.local-time-zone' = 'GMT+08:00';
CREATE TABLE clicks (page STRING, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_hour (page STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  window_time TIMESTAMP_LTZ(3), clicks BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hour}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hour
SELECT page, window_start, window_end, window_time, COUNT(*)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' HOUR))
GROUP BY page, window_start, window_end, window_time;
