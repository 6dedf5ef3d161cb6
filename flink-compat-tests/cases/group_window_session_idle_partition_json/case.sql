SET 'accelerator.group-window-aggregate.enabled' = 'true';
CREATE TABLE clicks (`user` STRING, page STRING, dwell DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sessions (`user` STRING, clicks BIGINT, dwell DOUBLE, longest DOUBLE, first_page STRING,
  s_start TIMESTAMP(3), s_end TIMESTAMP(3), s_time TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO sessions
SELECT `user`, COUNT(*), SUM(dwell), MAX(dwell), MIN(page), SESSION_START(ts, INTERVAL '3' SECOND),
  SESSION_END(ts, INTERVAL '3' SECOND), SESSION_ROWTIME(ts, INTERVAL '3' SECOND)
FROM clicks GROUP BY `user`, SESSION(ts, INTERVAL '3' SECOND);
