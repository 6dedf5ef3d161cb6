SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (a STRING, b INT, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE latest (a STRING, b INT, v INT, ts TIMESTAMP(3), PRIMARY KEY (a, b) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO latest SELECT a, b, v, CAST(ts AS TIMESTAMP(3)) FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY a, b ORDER BY ts DESC) AS rn FROM events
WHERE a IS NOT NULL AND b IS NOT NULL) WHERE rn = 1;
