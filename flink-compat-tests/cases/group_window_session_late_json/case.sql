SET 'accelerator.group-window-aggregate.enabled' = 'true';
CREATE TABLE clicks (`user` STRING, dwell DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE sessions (`user` STRING, clicks BIGINT, dwell DOUBLE, avg_dwell DOUBLE, s_start TIMESTAMP(3),
  s_end TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO sessions
SELECT `user`, COUNT(*), SUM(dwell), AVG(dwell), SESSION_START(ts, INTERVAL '2' SECOND), SESSION_END(ts, INTERVAL '2' SECOND)
FROM clicks GROUP BY `user`, SESSION(ts, INTERVAL '2' SECOND);
