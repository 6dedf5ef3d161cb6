SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE bids (auction BIGINT, bidder STRING, price BIGINT, qty INT, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top_price (auction BIGINT, rn BIGINT, bidder STRING, price BIGINT, PRIMARY KEY (auction, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_price}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE top_qty (qty INT, rn BIGINT, bidder STRING, price BIGINT, PRIMARY KEY (qty, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_qty}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO top_price SELECT auction, rn, bidder, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn
  FROM bids WHERE auction IS NOT NULL) WHERE rn <= 3;
INSERT INTO top_qty SELECT qty, rn, bidder, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY qty ORDER BY price ASC, bidder DESC) AS rn
  FROM bids WHERE qty IS NOT NULL) WHERE rn <= 2;
END;
