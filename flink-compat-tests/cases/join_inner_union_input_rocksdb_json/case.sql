SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE web (id BIGINT, seller BIGINT, item STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:web}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE shop (id BIGINT, seller BIGINT, item STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:shop}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id BIGINT, item STRING, channel STRING, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT S.id, S.item, S.channel, P.name FROM (SELECT id, seller, item, 'web' AS channel FROM web UNION ALL SELECT id, seller, item, 'shop' AS channel FROM shop) AS S JOIN persons AS P ON S.seller = P.id;
