CREATE TABLE readings (sensor STRING, reading DOUBLE, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:readings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.null-literal' = 'n/a', 'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_hop (sensor STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, lo DOUBLE, hi DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hop}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hop
SELECT sensor, window_start, window_end, COUNT(*), MIN(reading), MAX(reading)
FROM TABLE(HOP(TABLE readings, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '12' SECOND))
GROUP BY sensor, window_start, window_end;
