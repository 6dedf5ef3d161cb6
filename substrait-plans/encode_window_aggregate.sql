-- Encode stage: a window aggregate (stock Flink) feeds a Calc and a Kafka json sink; its rows hold a
-- timestamp (window_start), which crosses to the sidecar as Flink's own (millis, nanos) pair.
CREATE TABLE clicks (page STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_minute (page STRING, window_start TIMESTAMP(3), clicks BIGINT, busy BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_minute}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_minute
SELECT UPPER(page), window_start, cnt * 10, cnt > 2
FROM (SELECT page, window_start, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
      GROUP BY page, window_start, window_end);
