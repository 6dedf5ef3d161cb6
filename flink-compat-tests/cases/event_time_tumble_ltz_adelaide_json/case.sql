SET 'table.local-time-zone' = 'Australia/Adelaide';
CREATE TABLE trips (city STRING, fare INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trips}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_hour (city STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP_LTZ(3),
  local_start STRING, trips BIGINT, fares INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hour}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hour
SELECT city, window_start, window_end, window_time, CAST(window_start AS STRING), COUNT(*), SUM(fare)
FROM TABLE(TUMBLE(TABLE trips, DESCRIPTOR(ts), INTERVAL '1' HOUR))
GROUP BY city, window_start, window_end, window_time;
