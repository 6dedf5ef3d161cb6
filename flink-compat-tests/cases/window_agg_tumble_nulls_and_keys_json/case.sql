SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE obs (g INT, d DOUBLE, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '30' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:obs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (g INT, d DOUBLE, window_end TIMESTAMP(3), n BIGINT, nv BIGINT, sv INT, lo INT, hi INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT g, d, window_end, COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v)
FROM TABLE(TUMBLE(TABLE obs, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY g, d, window_start, window_end;
