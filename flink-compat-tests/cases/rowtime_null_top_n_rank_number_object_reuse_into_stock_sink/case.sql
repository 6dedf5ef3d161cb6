SET 'accelerator.top-n.enabled' = 'true';
SET 'pipeline.object-reuse' = 'true';
CREATE TABLE events (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE top2 (k STRING, v INT, ts TIMESTAMP(3), rn BIGINT, PRIMARY KEY (k, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top2}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'avro', 'value.format' = 'avro');
INSERT INTO top2 SELECT k, v, ts, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn
  FROM events WHERE k IS NOT NULL) WHERE rn <= 2;
