SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.join.enabled' = 'true';
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3), extra STRING,
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE q7 (auction BIGINT, price BIGINT, bidder BIGINT, `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:q7}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO q7
SELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra
FROM bids B
JOIN (
  SELECT MAX(price) AS maxprice, window_end AS `dateTime`
  FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.`dateTime` BETWEEN B1.`dateTime` - INTERVAL '10' SECOND AND B1.`dateTime`;
