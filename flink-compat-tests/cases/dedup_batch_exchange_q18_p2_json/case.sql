SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE events (event_type INT, auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE q18 (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3),
  extra STRING, PRIMARY KEY (bidder, auction) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:q18}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
CREATE VIEW bid AS SELECT auction, bidder, price, channel, url, `dateTime`, extra FROM events WHERE event_type = 2;
INSERT INTO q18
SELECT auction, bidder, price, channel, url, `dateTime`, extra
FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY `dateTime` DESC) AS rank_number FROM bid)
WHERE rank_number <= 1;
