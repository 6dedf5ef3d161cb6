CREATE TABLE clicks (page STRING, ms INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_5s (page STRING, clicks BIGINT, load_ms INT,
  rt TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_5s}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_5s
SELECT page, COUNT(*), SUM(ms), window_time
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND))
GROUP BY page, window_start, window_end, window_time;
