SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE report (auction_ref STRING, margin BIGINT, channel STRING, late BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:report}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO report SELECT CONCAT('A-', CAST(A.id AS STRING)), B.price - A.reserve, UPPER(B.channel), B.`dateTime` > A.expires FROM (SELECT id, reserve, expires FROM auctions WHERE category <> 11) AS A JOIN (SELECT auction, price, channel, `dateTime` FROM bids WHERE price > 100 AND channel <> '') AS B ON A.id = B.auction WHERE B.price * 2 > A.reserve;
