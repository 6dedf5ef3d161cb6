SET 'accelerator.top-n.enabled' = 'true';
SET 'table.exec.sink.require-on-conflict' = 'false';
CREATE TABLE bids (auction BIGINT, bidder STRING, price BIGINT, channel STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top_bids (auction BIGINT, bidder STRING, price BIGINT, channel STRING, ts TIMESTAMP(3), PRIMARY KEY (auction, bidder, ts) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO top_bids SELECT auction, bidder, price, channel, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn FROM bids WHERE auction IS NOT NULL) WHERE rn <= 3;
