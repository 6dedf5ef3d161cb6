CREATE TABLE orders (region STRING, product STRING, qty INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE rolled_up (window_start TIMESTAMP(3), window_end TIMESTAMP(3), region STRING, product STRING, orders BIGINT, qty INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rollup}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO rolled_up
SELECT window_start, window_end, region, product, COUNT(*), SUM(qty)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, ROLLUP (region, product);
