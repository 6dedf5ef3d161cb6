SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE trades (sym STRING, amount DECIMAL(10, 2), big DECIMAL(38, 10), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (sym STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT,
  avg_amount DECIMAL(38, 6), avg_big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT sym, window_start, window_end, COUNT(*), AVG(amount), AVG(big)
FROM TABLE(TUMBLE(TABLE trades, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY sym, window_start, window_end;
