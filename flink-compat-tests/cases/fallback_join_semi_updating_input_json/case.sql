SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
SET 'table.exec.sink.require-on-conflict' = 'false';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, city STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id BIGINT, item STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO joined SELECT A.id, A.item FROM auctions AS A WHERE A.seller IN (SELECT id FROM persons GROUP BY id HAVING COUNT(*) < 5);
