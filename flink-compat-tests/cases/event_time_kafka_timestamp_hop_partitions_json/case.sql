CREATE TABLE visits (page STRING, part INT METADATA FROM 'partition' VIRTUAL,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:visits}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_hop (part INT, page STRING, window_start TIMESTAMP_LTZ(3), window_end TIMESTAMP_LTZ(3), visits BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hop}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_hop
SELECT part, page, window_start, window_end, COUNT(*)
FROM TABLE(HOP(TABLE visits, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '9' SECOND))
GROUP BY part, page, window_start, window_end;
