SET 'accelerator.join.enabled' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE nexmark (
  event_type INT,
  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
    `dateTime` TIMESTAMP(3), extra VARCHAR>,
  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
    `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),
    extra VARCHAR>,
  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime`
    ELSE bid.`dateTime` END
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:nexmark}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.`dateTime` FROM nexmark
  WHERE event_type = 2;
CREATE VIEW auction AS SELECT auction.id, auction.itemName, auction.reserve, auction.`dateTime`, auction.expires,
  auction.seller, auction.category FROM nexmark WHERE event_type = 1;
CREATE TABLE q20 (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, bidTime TIMESTAMP(3),
  itemName VARCHAR, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT)
  WITH ('connector' = 'kafka', 'topic' = '${topic:q20}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO q20
SELECT B.auction, B.bidder, B.price, B.channel, B.`dateTime`, A.itemName, A.reserve, A.`dateTime`, A.expires,
  A.seller, A.category
FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id;
