CREATE TABLE trades (acct STRING, qty INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rolling (acct STRING, ts TIMESTAMP(3), qty INT, qty_10s INT, n_10s BIGINT, max_10s INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rolling}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO rolling
SELECT acct, ts, qty,
  SUM(qty) OVER w, COUNT(*) OVER w, MAX(qty) OVER w
FROM trades
WINDOW w AS (PARTITION BY acct ORDER BY ts RANGE BETWEEN INTERVAL '10' SECOND PRECEDING AND CURRENT ROW);
