SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.local-time-zone' = 'GMT+08:00';
CREATE TABLE clicks (page STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_hour (page STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP_LTZ(3),
  n BIGINT, last_ms BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hour}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hour
SELECT page, window_start, window_end, window_time, COUNT(*), MAX(ms)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' HOUR))
GROUP BY page, window_start, window_end, window_time;
