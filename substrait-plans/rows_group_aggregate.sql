-- Rows stage: the source and the Calc before the aggregation (filter, projection) run
-- accelerated; their rows go to Flink's own hash exchange and GroupAggregate.
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE channel_volume (channel STRING, bids BIGINT, volume BIGINT, PRIMARY KEY (channel) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO channel_volume SELECT channel, COUNT(*), SUM(price * 2) FROM bid WHERE price > 100 GROUP BY channel;
