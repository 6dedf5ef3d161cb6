SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
SET 'table.exec.sink.require-on-conflict' = 'false';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, city STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE q3 (id BIGINT, name STRING, city STRING, state STRING, PRIMARY KEY (id, name, city, state) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:q3}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO q3 SELECT A.id, P.name, P.city, P.state FROM auctions AS A INNER JOIN persons AS P ON A.seller = P.id WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA');
