SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
SET 'parallelism.default' = '2';
CREATE TABLE bids (bidder STRING, auction BIGINT, price INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (bidder STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT,
  auctions_max BIGINT, total INT, low INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT bidder, window_start, window_end, COUNT(*), MAX(auction), SUM(price), MIN(price)
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND))
WHERE auction > 3
GROUP BY bidder, window_start, window_end;
