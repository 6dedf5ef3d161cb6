CREATE TABLE orders (id INT, currency STRING, amount INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rates (currency STRING, rate INT, rts TIMESTAMP(3), WATERMARK FOR rts AS rts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rates}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE VIEW versioned_rates AS
SELECT currency, rate, rts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY rts DESC) AS rn FROM rates)
WHERE rn = 1;
CREATE TABLE converted (id INT, currency STRING, amount INT, rate INT, total INT, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:converted}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO converted
SELECT o.id, o.currency, o.amount, r.rate, o.amount * r.rate, o.ts
FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency;
