SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE events (k STRING, x BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (k STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total BIGINT, lo BIGINT, hi BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT k, window_start, window_end, COUNT(*), SUM(x), MIN(x), MAX(x)
FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND)) GROUP BY k, window_start, window_end;
