CREATE TABLE priced (auction BIGINT, bidder_id BIGINT, price_eur DOUBLE, channel STRING, extra STRING, placed_seconds BIGINT,
  ts AS TO_TIMESTAMP_LTZ(placed_seconds, 0),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:priced}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.PricedBid',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_hop (channel STRING, hop_start TIMESTAMP(3), hop_end TIMESTAMP(3), bids BIGINT, with_extra BIGINT, revenue DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hop}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hop
SELECT channel, HOP_START(ts, INTERVAL '10' SECOND, INTERVAL '20' SECOND), HOP_END(ts, INTERVAL '10' SECOND, INTERVAL '20' SECOND),
  COUNT(*), COUNT(extra), SUM(price_eur)
FROM priced WHERE bidder_id <> 0
GROUP BY channel, HOP(ts, INTERVAL '10' SECOND, INTERVAL '20' SECOND);
