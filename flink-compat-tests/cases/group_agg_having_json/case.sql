SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE busy (k STRING, n BIGINT, total BIGINT, hi BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:busy}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO busy SELECT k, COUNT(*), SUM(x), MAX(x) FROM events WHERE k IS NOT NULL GROUP BY k
HAVING COUNT(*) >= 3 AND SUM(x) > 10;
