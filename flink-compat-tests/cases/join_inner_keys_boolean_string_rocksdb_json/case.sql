SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE lhs (id INT, flag BOOLEAN, name STRING, qty INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rhs (flag BOOLEAN, name STRING, city STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id INT, flag BOOLEAN, name STRING, qty INT, city STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT L.id, L.flag, L.name, L.qty, R.city FROM lhs AS L JOIN rhs AS R ON L.flag = R.flag AND L.name = R.name;
