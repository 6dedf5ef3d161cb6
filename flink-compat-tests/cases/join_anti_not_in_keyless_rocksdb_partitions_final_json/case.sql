SET 'accelerator.join.enabled' = 'true';
SET 'table.exec.sink.require-on-conflict' = 'false';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, city STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE unmatched (id BIGINT, item STRING, seller BIGINT, price BIGINT,
  PRIMARY KEY (id, item, seller, price) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:unmatched}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO unmatched SELECT COALESCE(A.id, -1), COALESCE(A.item, '-'), COALESCE(A.seller, -1), COALESCE(A.price, -1) FROM auctions AS A WHERE A.seller NOT IN (SELECT id FROM persons WHERE id IS NOT NULL);
