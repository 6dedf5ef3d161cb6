CREATE TABLE clicks (page STRING, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE out_wm (page STRING, ts TIMESTAMP_LTZ(3), wm TIMESTAMP_LTZ(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_wm}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_wm SELECT page, ts, CURRENT_WATERMARK(ts) FROM clicks;
