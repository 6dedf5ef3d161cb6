SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE events (k1 STRING, k2 INT, x BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (k1 STRING, k2 INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total BIGINT, hi BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT k1, k2, window_start, window_end, COUNT(*), SUM(x), MAX(x)
FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '30' SECOND)) GROUP BY k1, k2, window_start, window_end;
