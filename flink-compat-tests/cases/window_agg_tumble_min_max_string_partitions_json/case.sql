SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE events (g INT, s STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (g INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, ns BIGINT, lo STRING,
  hi STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT g, window_start, window_end, COUNT(*), COUNT(s), MIN(s), MAX(s)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY g, window_start, window_end;
