SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE lhs (k INT, item STRING, price INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rhs (k INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (k INT, item STRING, price INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT L.k, L.item, L.price, R.name FROM lhs AS L JOIN rhs AS R ON L.k = R.k;
