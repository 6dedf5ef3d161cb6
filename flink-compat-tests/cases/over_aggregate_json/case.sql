CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE running_totals (`user` STRING, ts TIMESTAMP(3), running_total INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:running}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO running_totals SELECT `user`, ts, SUM(amount) OVER (PARTITION BY `user` ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders;
