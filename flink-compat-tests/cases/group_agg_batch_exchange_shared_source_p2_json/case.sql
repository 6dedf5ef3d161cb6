SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
SET 'table.exec.sink.require-on-conflict' = 'false';
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
CREATE VIEW bid AS SELECT bid.auction, bid.price, `dateTime` FROM nexmark WHERE event_type = 2;
CREATE VIEW auction AS SELECT auction.seller, auction.category, auction.initialBid FROM nexmark WHERE event_type = 1;
CREATE TABLE per_day (auction BIGINT, `day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT,
  min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT,
  PRIMARY KEY (auction, `day`) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_day}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE per_seller (seller BIGINT, auctions BIGINT, categories BIGINT, max_initial BIGINT, sum_initial BIGINT,
  PRIMARY KEY (seller) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_seller}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO per_day
SELECT COALESCE(auction, -1), `day`, n, n1, n2, lo, hi, mean, total
FROM (SELECT auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*) AS n,
  COUNT(*) FILTER (WHERE price < 10000) AS n1, COUNT(*) FILTER (WHERE price >= 10000) AS n2, MIN(price) AS lo,
  MAX(price) AS hi, AVG(price) AS mean, SUM(price) AS total
  FROM bid GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'));
INSERT INTO per_seller
SELECT COALESCE(seller, -1), n, categories, max_initial, sum_initial
FROM (SELECT seller, COUNT(*) AS n, COUNT(category) AS categories, MAX(initialBid) AS max_initial,
  SUM(initialBid) AS sum_initial FROM auction GROUP BY seller);
END;
