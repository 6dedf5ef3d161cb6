CREATE TABLE states (device STRING, state STRING, level INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:states}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE last_state (window_start TIMESTAMP(3), window_end TIMESTAMP(3), device STRING, state STRING, level INT, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:last_state}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO last_state
SELECT window_start, window_end, device, state, level, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, device ORDER BY ts DESC) AS rn
  FROM TABLE(TUMBLE(TABLE states, DESCRIPTOR(ts), INTERVAL '5' SECOND)))
WHERE rn = 1;
