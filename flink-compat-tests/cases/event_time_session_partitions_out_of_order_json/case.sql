CREATE TABLE clicks (`user` STRING, page STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sessions (`user` STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP(3),
  clicks BIGINT, pages BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO sessions
SELECT `user`, window_start, window_end, window_time, COUNT(*), COUNT(DISTINCT page)
FROM TABLE(SESSION(TABLE clicks PARTITION BY `user`, DESCRIPTOR(ts), INTERVAL '4' SECOND))
GROUP BY `user`, window_start, window_end, window_time;
