SET 'accelerator.window-aggregate.enabled' = 'true';
CREATE TABLE bids (auction BIGINT, price INT, qty BIGINT, amount DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT,
  big_bids BIGINT, priced_when_many BIGINT, total_big INT, low_amount DECIMAL(10, 2), avg_qty BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT auction, window_start, window_end, COUNT(*), COUNT(*) FILTER (WHERE price > 10),
  COUNT(price) FILTER (WHERE qty > 5), SUM(price) FILTER (WHERE price > 10),
  MIN(amount) FILTER (WHERE qty IS NOT NULL AND qty < 0), AVG(qty) FILTER (WHERE amount > 0)
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY auction, window_start, window_end;
