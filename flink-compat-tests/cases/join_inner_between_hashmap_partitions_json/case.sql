SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE winning (id BIGINT, item STRING, category INT, expires TIMESTAMP(3), bidder BIGINT, price BIGINT, channel STRING, bidTime TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:winning}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO winning SELECT A.id, A.item, A.category, A.expires, B.bidder, B.price, B.channel, B.`dateTime` FROM auctions AS A, bids AS B WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires;
