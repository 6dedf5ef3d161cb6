CREATE TABLE clicks (page STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE out_wm (page STRING, ts TIMESTAMP(3), wm TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_wm}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_wm SELECT page, ts, CURRENT_WATERMARK(ts) FROM clicks WHERE page <> 'bot';
