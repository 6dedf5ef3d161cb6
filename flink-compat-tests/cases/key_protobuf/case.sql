CREATE TABLE src (auction BIGINT, region STRING, price BIGINT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'protobuf', 'key.protobuf.message-class-name' = 'acc.compat.BidKey', 'key.fields' = 'auction;region',
  'value.format' = 'protobuf', 'value.protobuf.message-class-name' = 'acc.compat.Amount',
  'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (region STRING, auction BIGINT, price BIGINT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'protobuf', 'key.protobuf.message-class-name' = 'acc.compat.BidKey', 'key.fields' = 'region;auction',
  'value.format' = 'json', 'value.fields-include' = 'ALL');
INSERT INTO dst SELECT region, auction * 10, price, note FROM src WHERE price >= 0;
