SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total BIGINT, hi BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT window_start, window_end, COUNT(*), SUM(x), MAX(x)
FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '15' SECOND))
GROUP BY window_start, window_end;
