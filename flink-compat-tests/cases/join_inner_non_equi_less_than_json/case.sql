SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE outbid (id BIGINT, reserve BIGINT, bidder BIGINT, price BIGINT, bidTime TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:outbid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO outbid SELECT A.id, A.reserve, B.bidder, B.price, B.`dateTime` FROM auctions AS A JOIN bids AS B ON A.id = B.auction AND A.reserve < B.price AND B.`dateTime` < A.expires;
