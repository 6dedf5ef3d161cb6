SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE readings (k STRING, t TINYINT, s SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:readings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (k STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, avg_t TINYINT,
  avg_s SMALLINT, avg_i INT, avg_b BIGINT, avg_f FLOAT, avg_d DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT k, window_start, window_end, COUNT(*), AVG(t), AVG(s), AVG(i), AVG(b), AVG(f), AVG(d)
FROM TABLE(TUMBLE(TABLE readings, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY k, window_start, window_end;
