SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE trades (sym STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (sym STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), trades BIGINT,
  total DECIMAL(38, 2), low DECIMAL(10, 2), high DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT sym, window_start, window_end, COUNT(amount), SUM(amount), MIN(amount), MAX(amount)
FROM TABLE(TUMBLE(TABLE trades, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY sym, window_start, window_end;
