SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE bid (auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3),
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_auction (auction BIGINT, bids BIGINT, low BIGINT, high BIGINT, total BIGINT, last_bid TIMESTAMP(3),
  PRIMARY KEY (auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_auction}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO per_auction
SELECT auction, COUNT(*), MIN(price), MAX(price), SUM(price), MAX(`dateTime`) FROM bid GROUP BY auction;
