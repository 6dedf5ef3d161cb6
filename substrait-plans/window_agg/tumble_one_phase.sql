-- Single phase (ONE_PHASE): the window aggregate reads rows, so the descriptor names the argument
-- columns. SUM over INT, DOUBLE and DECIMAL (DECIMAL(38, s) accumulator), MIN/MAX keep the input type.
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE trades (symbol STRING, qty INT, price DOUBLE, amount DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_minute (symbol STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), qty INT,
  turnover DOUBLE, amount DECIMAL(38, 2), low DOUBLE, high DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_minute}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_minute
SELECT symbol, window_start, window_end, SUM(qty), SUM(price), SUM(amount), MIN(price), MAX(amount)
FROM TABLE(TUMBLE(TABLE trades, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY symbol, window_start, window_end;
