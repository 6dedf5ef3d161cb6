SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE clicks (page STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE out_rows (page STRING, ts TIMESTAMP(3), n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_rows}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT page, ts, COUNT(*) OVER (PARTITION BY page ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM clicks;
