SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE q20 (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, bidTime TIMESTAMP(3), item STRING, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:q20}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO q20 SELECT B.auction, B.bidder, B.price, B.channel, B.`dateTime`, A.item, A.reserve, A.`dateTime`, A.expires, A.seller, A.category FROM bids AS B INNER JOIN auctions AS A ON B.auction = A.id WHERE A.category = 10;
