SET 'accelerator.join.enabled' = 'true';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE matched (id BIGINT, item STRING, seller BIGINT, bidder BIGINT, channel STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:matched}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO matched SELECT A.id, A.item, A.seller, B.bidder, B.channel FROM auctions AS A JOIN bids AS B ON UPPER(A.item) = UPPER(B.channel) AND A.seller + 1 = B.bidder;
