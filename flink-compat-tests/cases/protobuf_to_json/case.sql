CREATE TABLE bid (auction BIGINT, bidder ROW<id BIGINT, name STRING>, price BIGINT, channel STRING, url STRING,
  placed ROW<seconds BIGINT, nanos INT>, extra STRING, ratio DOUBLE, sealed BOOLEAN, payload BYTES, quantity INT,
  delta BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.Bid');
CREATE TABLE out_bid (auction BIGINT, bidder_name STRING, price BIGINT, channel STRING, url STRING,
  placed ROW<seconds BIGINT, nanos INT>, extra STRING, sealed BOOLEAN, payload BYTES, quantity INT, delta BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, UPPER(bidder.name), price * 2, channel, url, placed, extra, sealed, payload,
  quantity, delta FROM bid WHERE channel <> 'APP';
