-- Two phase (AUTO) over CUMULATE windows growing by 5 s steps up to 20 s: the global phase merges
-- the local phase's accumulators into 5 s slices; each window continues from its first slice.
-- CUMULATE derives no COUNT(*) of its own, so no window is empty.
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, url STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_auction (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT,
  total BIGINT, lowest BIGINT, highest BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_auction}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_auction
SELECT auction, window_start, window_end, COUNT(*), SUM(price), MIN(price), MAX(price)
FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY auction, window_start, window_end;
