CREATE TABLE clicks (page STRING, ms INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_5s (page STRING, w_start TIMESTAMP(3), w_end TIMESTAMP(3), w_rowtime TIMESTAMP(3), clicks BIGINT, load_ms INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_5s}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE per_15s (page STRING, w_start TIMESTAMP(3), w_end TIMESTAMP(3), windows BIGINT, clicks BIGINT, busiest BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_15s}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE VIEW five AS
SELECT page, TUMBLE_START(ts, INTERVAL '5' SECOND) AS w_start, TUMBLE_END(ts, INTERVAL '5' SECOND) AS w_end,
  TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS clicks, SUM(ms) AS load_ms
FROM clicks GROUP BY page, TUMBLE(ts, INTERVAL '5' SECOND);
EXECUTE STATEMENT SET BEGIN
INSERT INTO per_5s SELECT page, w_start, w_end, CAST(rt AS TIMESTAMP(3)), clicks, load_ms FROM five;
INSERT INTO per_15s
SELECT page, TUMBLE_START(rt, INTERVAL '15' SECOND), TUMBLE_END(rt, INTERVAL '15' SECOND), COUNT(*), SUM(clicks), MAX(clicks)
FROM five GROUP BY page, TUMBLE(rt, INTERVAL '15' SECOND);
END;
