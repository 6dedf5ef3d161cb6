SET 'accelerator.group-window-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, d DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (k STRING, n BIGINT, nx BIGINT, total BIGINT, hi BIGINT, avg_x BIGINT, sum_d DOUBLE,
  w_start TIMESTAMP(3), w_end TIMESTAMP(3), w_time TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT k, COUNT(*), COUNT(x), SUM(x), MAX(x), AVG(x), SUM(d),
  SESSION_START(ts, INTERVAL '1.5' SECOND), SESSION_END(ts, INTERVAL '1.5' SECOND), SESSION_ROWTIME(ts, INTERVAL '1.5' SECOND)
FROM events GROUP BY k, SESSION(ts, INTERVAL '1.5' SECOND);
