CREATE TABLE bid (auction BIGINT, price BIGINT, channel STRING, url STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_bid (auction BIGINT, channel STRING, cleaned STRING, price DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, channel, REGEXP_REPLACE(url, '[0-9]+', '#'), price / 3.0 FROM bid;
