SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE events (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE latest (k STRING, v INT, ts TIMESTAMP(3), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'avro', 'value.format' = 'avro');
INSERT INTO latest SELECT k, v, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn
  FROM events WHERE k IS NOT NULL) WHERE rn = 1;
