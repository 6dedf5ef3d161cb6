-- Rows stage over a shared source: one Kafka source read by both sides of a UNION ALL, each with
-- its own Calc. The messages are decoded once; the stage's plan is the first side's Calc and its
-- "branches" entry the second's, each output feeding its own consumer.
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE priced (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO priced SELECT auction, price * 2 FROM bid WHERE price > 100
  UNION ALL SELECT auction, price + 1 FROM bid WHERE channel <> 'b';
