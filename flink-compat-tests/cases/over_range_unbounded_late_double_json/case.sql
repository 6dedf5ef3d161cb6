SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE ticks (sym STRING, px DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ticks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE stats (sym STRING, ts TIMESTAMP(3), px DOUBLE, total DOUBLE, lo DOUBLE, hi DOUBLE, mean DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:stats}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO stats
SELECT sym, ts, px, SUM(px) OVER w, MIN(px) OVER w, MAX(px) OVER w, AVG(px) OVER w
FROM ticks
WINDOW w AS (PARTITION BY sym ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
