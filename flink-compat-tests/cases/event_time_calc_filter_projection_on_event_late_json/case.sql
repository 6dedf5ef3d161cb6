CREATE TABLE events (kind STRING, page STRING, amount INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '0.5' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (section STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), orders BIGINT, revenue INT, biggest INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT section, window_start, window_end, COUNT(*), SUM(cents), MAX(cents)
FROM TABLE(TUMBLE(
  (SELECT UPPER(SPLIT_INDEX(page, '/', 1)) AS section, amount * 100 AS cents, ts FROM events
   WHERE kind = 'order' AND amount > 0),
  DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY section, window_start, window_end;
