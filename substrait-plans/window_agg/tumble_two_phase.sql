-- Two phase (the default agg-phase-strategy AUTO): the global window aggregate reads the local
-- phase's accumulators. COUNT(*), COUNT(x) and SUM/MIN/MAX over BIGINT per auction per 10 s.
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
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
