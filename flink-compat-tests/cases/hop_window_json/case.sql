CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE hops (cat STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), total INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:hops}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO hops SELECT cat, window_start, window_end, SUM(amount) FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '30' SECOND)) GROUP BY cat, window_start, window_end;
