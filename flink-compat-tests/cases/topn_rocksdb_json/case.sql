SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE bids (auction BIGINT, bidder STRING, price BIGINT, qty INT, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top_bids (auction BIGINT, rn BIGINT, bidder STRING, price BIGINT, PRIMARY KEY (auction, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO top_bids SELECT auction, rn, bidder, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn
  FROM bids WHERE auction IS NOT NULL) WHERE rn <= 3;
