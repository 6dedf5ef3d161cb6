SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE events (a STRING, b INT, c BOOLEAN, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (a STRING, b INT, c BOOLEAN, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total BIGINT, lo BIGINT, hi BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT a, b, c, window_start, window_end, COUNT(*), SUM(v), MIN(v), MAX(v)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY a, b, c, window_start, window_end;
