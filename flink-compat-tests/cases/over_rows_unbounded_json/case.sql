SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE orders (`user` STRING, amount INT, price DOUBLE, qty BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE totals (`user` STRING, ts TIMESTAMP(3), amount INT, n BIGINT, total INT, lo DOUBLE, hi DOUBLE, avg_qty BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO totals
SELECT `user`, ts, amount, COUNT(*) OVER w, SUM(amount) OVER w, MIN(price) OVER w, MAX(price) OVER w, AVG(qty) OVER w
FROM orders
WINDOW w AS (PARTITION BY `user` ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
