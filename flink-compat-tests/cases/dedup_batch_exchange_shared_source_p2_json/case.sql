SET 'accelerator.deduplicate.enabled' = 'true';
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
    ELSE bid.`dateTime` END,
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:nexmark}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE VIEW person AS SELECT person.id, person.name, person.state, `dateTime` FROM nexmark WHERE event_type = 0;
CREATE VIEW auction AS SELECT auction.category, auction.reserve FROM nexmark WHERE event_type = 1;
CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, `dateTime`, bid.extra
  FROM nexmark WHERE event_type = 2;
CREATE TABLE q18 (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3), extra STRING,
  PRIMARY KEY (bidder, auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:q18}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE per_category (category BIGINT, auctions BIGINT, min_reserve BIGINT,
  PRIMARY KEY (category) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_category}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE people (id BIGINT, name STRING, state STRING, `dateTime` TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = '${topic:people}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO q18
SELECT COALESCE(auction, -1), bidder, price, channel, `dateTime`, extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number FROM bid)
WHERE rank_number <= 1;
INSERT INTO per_category
SELECT COALESCE(category, -1), n, min_reserve
FROM (SELECT category, COUNT(*) AS n, MIN(reserve) AS min_reserve FROM auction GROUP BY category);
INSERT INTO people SELECT id, name, state, `dateTime` FROM person;
END;
