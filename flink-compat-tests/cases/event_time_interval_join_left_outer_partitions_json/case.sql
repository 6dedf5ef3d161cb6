CREATE TABLE orders (id INT, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE shipments (order_id INT, carrier STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:shipments}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE shipped (id INT, item STRING, ots TIMESTAMP(3), carrier STRING, sts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:shipped}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO shipped
SELECT o.id, o.item, CAST(o.ots AS TIMESTAMP(3)), s.carrier, CAST(s.sts AS TIMESTAMP(3))
FROM orders o LEFT JOIN shipments s
  ON o.id = s.order_id AND s.sts BETWEEN o.ots - INTERVAL '2' SECOND AND o.ots + INTERVAL '8' SECOND;
