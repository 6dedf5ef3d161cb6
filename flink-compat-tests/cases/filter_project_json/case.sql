CREATE TABLE orders (id BIGINT, `user` STRING, amount INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE big_orders (id BIGINT, `user` STRING, doubled INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:big_orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO big_orders SELECT id, `user`, amount * 2, note FROM orders WHERE amount >= 10;
