CREATE TABLE bids (auction BIGINT, bidder BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(3),
  tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro');
CREATE TABLE bids_json (auction BIGINT, price DECIMAL(10, 2), channel STRING, ts TIMESTAMP(3), n_tags INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids_json}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO bids_json SELECT auction, price, channel, ts, CARDINALITY(tags) FROM bids WHERE price > 1;
