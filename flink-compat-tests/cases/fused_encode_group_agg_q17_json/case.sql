SET 'accelerator.encode-stages.fused.enabled' = 'true';
SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE bid (auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_day (auction BIGINT, `day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT,
  rank3_bids BIGINT, min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT,
  PRIMARY KEY (auction, `day`) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_day}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO per_day
SELECT auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*),
  COUNT(*) FILTER (WHERE price < 10000), COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000),
  COUNT(*) FILTER (WHERE price >= 1000000), MIN(price), MAX(price), AVG(price), SUM(price)
FROM bid
GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd');
