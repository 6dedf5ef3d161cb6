SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE sales (name STRING, amt DECIMAL(10, 2), flag BOOLEAN, `day` TIMESTAMP(3), v INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '20' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sales}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (name STRING, amt DECIMAL(10, 2), flag BOOLEAN, `day` TIMESTAMP(3), window_end TIMESTAMP(3),
  n BIGINT, total INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT name, amt, flag, `day`, window_end, COUNT(*), SUM(v)
FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY name, amt, flag, `day`, window_start, window_end;
