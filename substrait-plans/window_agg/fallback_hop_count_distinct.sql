-- Stays stock: COUNT(DISTINCT ...) over a HOP window (the HOP window itself is accelerated).
CREATE TABLE bids (auction BIGINT, price BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_auction (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bidders BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_auction}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_auction
SELECT auction, window_start, window_end, COUNT(DISTINCT price)
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
