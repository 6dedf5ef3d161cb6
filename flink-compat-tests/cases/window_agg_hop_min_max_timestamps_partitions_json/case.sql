SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE events (g INT, t3 TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), dt DATE, tm TIME, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (g INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, lo_t3 TIMESTAMP(3),
  hi_t3 TIMESTAMP(3), lo_ltz TIMESTAMP_LTZ(6), hi_ltz TIMESTAMP_LTZ(6), lo_dt DATE, hi_dt DATE, lo_tm TIME, hi_tm TIME) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT g, window_start, window_end, COUNT(*), MIN(t3), MAX(t3), MIN(ltz), MAX(ltz), MIN(dt),
  MAX(dt), MIN(tm), MAX(tm)
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY g, window_start, window_end;
