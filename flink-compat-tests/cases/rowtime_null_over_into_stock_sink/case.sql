SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE totals (k STRING, v INT, ts TIMESTAMP(3), n BIGINT, top INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro', 'avro.encoding' = 'json');
INSERT INTO totals SELECT k, v, ts, COUNT(*) OVER w, MAX(v) OVER w FROM events
WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
