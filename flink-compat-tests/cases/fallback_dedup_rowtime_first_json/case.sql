SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE events (k STRING, v DOUBLE, s STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE firsts (k STRING, v DOUBLE, s STRING, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:firsts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO firsts SELECT k, v, s, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts ASC) AS rn FROM events) WHERE rn = 1;
