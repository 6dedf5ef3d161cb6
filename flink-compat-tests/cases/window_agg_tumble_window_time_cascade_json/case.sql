SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_minute (k STRING, window_start TIMESTAMP(3), windows BIGINT, total BIGINT, hi BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_minute}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TEMPORARY VIEW per_10s AS
SELECT k, window_time AS wt, COUNT(*) AS n, SUM(v) AS s
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY k, window_start, window_end, window_time;
INSERT INTO per_minute
SELECT k, window_start, COUNT(*), SUM(s), MAX(n)
FROM TABLE(TUMBLE(TABLE per_10s, DESCRIPTOR(wt), INTERVAL '1' MINUTE))
GROUP BY k, window_start, window_end;
