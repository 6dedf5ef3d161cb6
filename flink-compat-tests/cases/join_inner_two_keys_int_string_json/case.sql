SET 'accelerator.join.enabled' = 'true';
CREATE TABLE orders (oid INT, cust INT, region STRING, amount BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE customers (cid INT, region STRING, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:customers}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (oid INT, cust INT, region STRING, amount BIGINT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT O.oid, O.cust, O.region, O.amount, C.name FROM orders AS O JOIN customers AS C ON O.cust = C.cid AND O.region = C.region;
