CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results (cat STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), total INT, n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO results SELECT cat, window_start, window_end, SUM(amount), COUNT(*)
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '2' MINUTE))
GROUP BY cat, window_start, window_end;
