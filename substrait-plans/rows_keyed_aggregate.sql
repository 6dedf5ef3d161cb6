-- Rows stage over a table with message keys: the key and the value are decoded in the sidecar
-- (the key column from the key, the others from the value) and the Calc before the aggregation
-- runs there too.
CREATE TABLE orders (order_id BIGINT, customer STRING, amount BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'order_id', 'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE totals (customer STRING, total BIGINT, PRIMARY KEY (customer) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT customer, SUM(amount) FROM orders WHERE order_id > 0 GROUP BY customer;
