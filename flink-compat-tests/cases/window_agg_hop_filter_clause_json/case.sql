SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE bids (auction BIGINT, price BIGINT, qty INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, big BIGINT, sum_cheap BIGINT, hi_qty INT, avg_price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT auction, window_start, window_end, COUNT(*), COUNT(*) FILTER (WHERE price >= 20),
  SUM(price) FILTER (WHERE price < 20), MAX(qty) FILTER (WHERE qty > 0), AVG(price) FILTER (WHERE qty IS NOT NULL)
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end;
