SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE events (k STRING, s STRING, v BIGINT, p DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_state (s STRING, n BIGINT, sv BIGINT, ap DECIMAL(38, 6), PRIMARY KEY (s) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_state}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO per_state SELECT s, COUNT(*), SUM(v), AVG(p) FROM (
  SELECT k, s, v, p FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM events WHERE k IS NOT NULL)
  WHERE rn = 1) WHERE s IS NOT NULL GROUP BY s;
