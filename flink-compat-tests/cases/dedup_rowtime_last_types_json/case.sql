SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, m DECIMAL(8, 3), d DATE, tm TIME(0), b BOOLEAN, f DOUBLE, t6 TIMESTAMP(6), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE latest (k STRING, m DECIMAL(8, 3), d DATE, tm TIME(0), b BOOLEAN, f DOUBLE, t6 TIMESTAMP(6), ts TIMESTAMP(3), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO latest SELECT k, m, d, tm, b, f, t6, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM events WHERE k IS NOT NULL) WHERE rn = 1;
