-- Rows stage: the Calc's REGEXP_EXTRACT ('.' is outside the subset Java and RE2 match alike) is not reproduced, so the Kafka source alone runs
-- accelerated (decoding the columns the query reads) and hands its rows to Flink's own Calc.
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_bid (auction BIGINT, channel_id STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, REGEXP_EXTRACT(url, 'channel_id=(.*)', 1) FROM bid;
