SET 'table.exec.source.idle-timeout' = '1 s';
CREATE TABLE pings (host STRING, latency INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:pings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (host STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), pings BIGINT, worst INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT host, window_start, window_end, COUNT(*), MAX(latency)
FROM TABLE(HOP(TABLE pings, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY host, window_start, window_end;
