SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, city STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE matched (id BIGINT, item STRING, seller BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:matched}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO matched SELECT A.id, A.item, A.seller, A.price FROM auctions AS A WHERE A.seller IN (SELECT id FROM persons);
