CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sessions (`user` STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO sessions SELECT `user`, window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE orders PARTITION BY `user`, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY `user`, window_start, window_end;
