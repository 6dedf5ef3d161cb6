CREATE TABLE orders (id BIGINT, item STRING, quantity INT, size STRING, price DOUBLE, gift BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.OrdersProto$Order',
  'protobuf.read-default-values' = 'true');
CREATE TABLE out_orders (id BIGINT, item STRING, quantity INT, size STRING, price DOUBLE, gift BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_orders SELECT id, item, quantity + 1, size, price, gift FROM orders WHERE quantity < 100;
