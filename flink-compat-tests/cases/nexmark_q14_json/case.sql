CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_bid (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), bidTimeType STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
-- q14 (the count_char UDF left out): a filter on a computed price and a CASE on the hour
INSERT INTO out_bid
SELECT auction, bidder, 0.908 * price AS price,
  CASE WHEN HOUR(`dateTime`) >= 8 AND HOUR(`dateTime`) <= 18 THEN 'dayTime'
       WHEN HOUR(`dateTime`) <= 6 OR HOUR(`dateTime`) >= 20 THEN 'nightTime'
       ELSE 'otherTime' END AS bidTimeType,
  `dateTime`, extra
FROM bid WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000;
