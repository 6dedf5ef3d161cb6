SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE clicks (page STRING, ms BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_page (page STRING, ts TIMESTAMP(3), ms BIGINT, n BIGINT, n_ms BIGINT, total_ms BIGINT, longest BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_page}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_page
SELECT page, ts, ms, COUNT(*) OVER w, COUNT(ms) OVER w, SUM(ms) OVER w, MAX(ms) OVER w
FROM clicks
WINDOW w AS (PARTITION BY page ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
