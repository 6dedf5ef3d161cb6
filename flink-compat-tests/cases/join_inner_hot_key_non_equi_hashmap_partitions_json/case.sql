SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, reserve BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE above (id BIGINT, item STRING, reserve BIGINT, bidder BIGINT, price BIGINT, channel STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:above}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO above SELECT A.id, A.item, A.reserve, B.bidder, B.price, B.channel FROM auctions AS A JOIN bids AS B ON A.id = B.auction AND B.price > A.reserve;
