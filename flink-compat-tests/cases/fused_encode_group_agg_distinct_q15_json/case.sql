SET 'accelerator.encode-stages.fused.enabled' = 'true';
SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_day (`day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT, rank3_bids BIGINT,
  total_bidders BIGINT, rank1_bidders BIGINT, rank2_bidders BIGINT, rank3_bidders BIGINT,
  total_auctions BIGINT, rank1_auctions BIGINT, rank2_auctions BIGINT, rank3_auctions BIGINT,
  PRIMARY KEY (`day`) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_day}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO per_day
SELECT DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*),
  COUNT(*) FILTER (WHERE price < 10000), COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(*) FILTER (WHERE price >= 1000000),
  COUNT(DISTINCT bidder), COUNT(DISTINCT bidder) FILTER (WHERE price < 10000),
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(DISTINCT bidder) FILTER (WHERE price >= 1000000),
  COUNT(DISTINCT auction), COUNT(DISTINCT auction) FILTER (WHERE price < 10000),
  COUNT(DISTINCT auction) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(DISTINCT auction) FILTER (WHERE price >= 1000000)
FROM bid
GROUP BY DATE_FORMAT(`dateTime`, 'yyyy-MM-dd');
