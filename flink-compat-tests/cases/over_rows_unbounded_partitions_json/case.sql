SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE trades (acct STRING, qty INT, px DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (acct STRING, ts TIMESTAMP(3), qty INT, n BIGINT, total INT, notional DOUBLE, hi DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO totals
SELECT acct, ts, qty, COUNT(*) OVER w, SUM(qty) OVER w, SUM(px) OVER w, MAX(px) OVER w
FROM trades
WINDOW w AS (PARTITION BY acct ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
