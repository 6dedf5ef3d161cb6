-- Two phase (AUTO) over HOP windows of 10 s sliding by 5 s: the global phase merges the local
-- phase's accumulators into 5 s slices. The query's COUNT(*) is the one that marks empty windows.
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_auction (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT,
  urls BIGINT, total BIGINT, lowest BIGINT, highest BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_auction}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_auction
SELECT auction, window_start, window_end, COUNT(*), COUNT(url), SUM(price), MIN(price), MAX(price)
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
