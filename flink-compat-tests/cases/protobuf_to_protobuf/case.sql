CREATE TABLE bid (auction BIGINT, bidder ROW<id BIGINT, name STRING>, price BIGINT, channel STRING, url STRING,
  placed ROW<seconds BIGINT, nanos INT>, extra STRING, ratio DOUBLE, sealed BOOLEAN, payload BYTES, quantity INT,
  delta BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.Bid');
CREATE TABLE priced (auction BIGINT, bidder_id BIGINT, price_eur DOUBLE, channel STRING, extra STRING,
  placed_seconds BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:priced}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.PricedBid');
INSERT INTO priced SELECT auction, bidder.id, ratio * 2, channel, extra, placed.seconds FROM bid
WHERE price > 10 AND NOT sealed;
