CREATE TABLE readings (sensor STRING, temp DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:readings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE smoothed (sensor STRING, ts TIMESTAMP(3), temp DOUBLE, avg3 DOUBLE, min3 DOUBLE, n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:smoothed}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO smoothed
SELECT sensor, ts, temp,
  AVG(temp) OVER (PARTITION BY sensor ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
  MIN(temp) OVER (PARTITION BY sensor ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
  COUNT(*) OVER (PARTITION BY sensor ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
FROM readings WHERE temp IS NOT NULL;
