CREATE TABLE src (id BIGINT, item STRING, quantity INT, size STRING, price DOUBLE, gift BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE orders (id BIGINT, item STRING, quantity INT, size STRING, price DOUBLE, gift BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.OrdersProto$Order');
INSERT INTO orders SELECT id, UPPER(item), quantity, size, price, gift FROM src;
