CREATE TABLE orders (`user` STRING, amount INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE payments (`user` STRING, paid INT, pts TIMESTAMP(3), WATERMARK FOR pts AS pts) WITH (
  'connector' = 'kafka', 'topic' = '${topic:payments}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE matched (`user` STRING, amount INT, paid INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:matched}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO matched SELECT o.`user`, o.amount, p.paid FROM orders o, payments p
WHERE o.`user` = p.`user` AND p.pts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
