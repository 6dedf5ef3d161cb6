CREATE TABLE clicks (page STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE out_rows (page STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), clicks BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_rows}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT page, window_start, window_end, COUNT(*) FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY page, window_start, window_end;
