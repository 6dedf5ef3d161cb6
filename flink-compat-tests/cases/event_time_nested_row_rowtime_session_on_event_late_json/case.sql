CREATE TABLE telemetry (device STRING, reading ROW<`value` DOUBLE, meta ROW<unit STRING, stamp TIMESTAMP(3)>>,
  ts AS reading.meta.stamp,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:telemetry}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE bursts (device STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), readings BIGINT, total DOUBLE, units BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bursts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO bursts
SELECT device, window_start, window_end, COUNT(*), SUM(reading.`value`), COUNT(DISTINCT reading.meta.unit)
FROM TABLE(SESSION(TABLE telemetry PARTITION BY device, DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY device, window_start, window_end;
