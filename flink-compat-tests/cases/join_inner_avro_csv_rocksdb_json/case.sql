SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE lhs (id INT, k INT, item STRING, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro');
CREATE TABLE rhs (k INT, name STRING, credit INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv');
CREATE TABLE joined (id INT, k INT, item STRING, price BIGINT, name STRING, credit INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT L.id, L.k, L.item, L.price, R.name, R.credit FROM lhs AS L JOIN rhs AS R ON L.k = R.k;
