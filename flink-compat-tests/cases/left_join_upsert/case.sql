SET 'table.exec.sink.require-on-conflict' = 'false';
CREATE TABLE orders (`user` STRING, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE users (`user` STRING, city STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:users}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results (`user` STRING, amount INT, city STRING, PRIMARY KEY (`user`) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO results SELECT o.`user`, o.amount, u.city FROM orders o LEFT JOIN users u ON o.`user` = u.`user`;
