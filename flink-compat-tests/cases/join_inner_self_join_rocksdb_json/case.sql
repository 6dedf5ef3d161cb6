SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE persons (id BIGINT, name STRING, city STRING, credit INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE pairs (city STRING, first_id BIGINT, second_id BIGINT, first_name STRING, second_name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:pairs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO pairs SELECT P1.city, P1.id, P2.id, P1.name, P2.name FROM persons AS P1 JOIN persons AS P2 ON P1.city = P2.city AND P1.id < P2.id AND P1.credit > P2.credit;
