SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
SET 'accelerator.join.enabled' = 'true';
SET 'table.exec.sink.require-on-conflict' = 'false';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, city STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id BIGINT, item STRING, price BIGINT, pid BIGINT, name STRING, city STRING,
  PRIMARY KEY (id, item, price, pid, name, city) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO joined SELECT COALESCE(A.id, -1), COALESCE(A.item, '-'), COALESCE(A.price, -1), COALESCE(P.id, -1), COALESCE(P.name, '-'), COALESCE(P.city, '-') FROM auctions AS A LEFT JOIN persons AS P ON A.seller = P.id;
